// The whole tree as one self-contained HTML page: an outline of the branches to navigate (the
// chain at one indentation, each other branch indented, as /tree draws it) beside every node with
// its messages, summaries and reports. It opens offline in any browser.
//
// The session is untrusted text, so the page is built to be safe whatever it holds:
//   - every piece of session text goes through text() or attr(): control and bidi characters
//     escaped (shared/control-chars.ts), then & < > " ' as entities. No session text is ever
//     inside the <style> or <script> element, so a `</script>` in a prompt is just text;
//   - a Content-Security-Policy meta allows no network at all (default-src 'none') and only the
//     page's own <style> and <script>, by their sha256: even markup that slipped through could
//     not run a script, load an image or send a form;
//   - the page works without its script (all nodes shown, <details> fold tool calls); the script
//     only filters the view to one branch.
import { createHash } from 'node:crypto'
import { escapeControlChars } from '../../shared/control-chars'
import type { TranscriptEntry } from '../../shared/views'
import { type EntryPart, entryParts, inputLines } from './entry-parts'
import { type ExportModel, type ExportedNode, kindPrefix } from './export-model'

/** Indentation levels drawn; deeper branches are drawn at this depth (their └ still shows). */
const MAX_DRAWN_DEPTH = 40

export function renderHtml(model: ExportModel): string {
  const { session } = model
  const owner = new Map<string, string>()
  for (const node of model.nodes) for (const e of node.entries) owner.set(e.uuid, node.id)
  const leafNode = model.leafUuid === null ? null : (owner.get(model.leafUuid) ?? null)
  // The last node of the branch each node's "Read this branch" shows: the active branch for a
  // node on it, the branch the graph draws through it otherwise.
  const endOf = (node: ExportedNode) =>
    (node.onActivePath ? leafNode : owner.get(node.branchLeafUuid)) ?? node.id
  const depth = Math.min(MAX_DRAWN_DEPTH, Math.max(0, ...model.nodes.map((n) => n.depth)))
  const style = `${STYLE}${Array.from({ length: depth }, (_, i) => `.d${i + 1}{--d:${i + 1}}`).join('')}`
  const turns = model.nodes.filter((n) => n.kind === 'turn').length
  const title = `Session ${session.sessionId}`
  const csp = [
    "default-src 'none'",
    `style-src '${sha256(style)}'`,
    `script-src '${sha256(SCRIPT)}'`,
    "base-uri 'none'",
    "form-action 'none'"
  ].join('; ')
  const parts: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(title)} · Rewind Studio</title>`,
    `<style>${style}</style>`,
    '</head><body>',
    '<header class="top">',
    `<h1>Session <code>${text(session.sessionId)}</code></h1>`,
    '<dl>',
    `<dt>Workspace</dt><dd><code>${text(session.cwd)}</code></dd>`,
    `<dt>Session file</dt><dd><code>${text(session.file)}</code></dd>`,
    session.forkedFrom === null
      ? ''
      : `<dt>Forked from</dt><dd>session <code>${text(session.forkedFrom.sessionId)}</code> at <code>${text(session.forkedFrom.leafUuid ?? '(start)')}</code></dd>`,
    `<dt>Exported</dt><dd>${text(model.exportedAt)}</dd>`,
    `<dt>${model.scope === 'all' ? 'Whole tree' : 'One branch'}</dt><dd>${turns} turn${turns === 1 ? '' : 's'}, ${model.nodes.length} node${model.nodes.length === 1 ? '' : 's'}</dd>`,
    '</dl>',
    '<p class="legend">● on the active branch · ▶ where the conversation is · └ a branch</p>',
    '<p class="views" hidden><button type="button" id="show-all">Whole tree</button> ',
    `<button type="button" data-branch="${attr(leafNode ?? '')}">Active branch</button> `,
    '<span id="showing" role="status">Showing the whole tree</span></p>',
    '</header>',
    '<div class="layout"><nav aria-label="Branches"><ol class="outline">'
  ]
  for (const node of model.nodes) parts.push(outlineItem(node, leafNode))
  parts.push('</ol></nav><main>')
  for (const node of model.nodes) parts.push(nodeSection(node, endOf(node), leafNode, session.cwd))
  if (model.nodes.length === 0) parts.push('<p>The session has no messages yet.</p>')
  parts.push(`</main></div><script>${SCRIPT}</script></body></html>\n`)
  return parts.join('\n')
}

function outlineItem(node: ExportedNode, leafNode: string | null): string {
  const mark = node.id === leafNode ? '▶' : node.onActivePath ? '●' : '○'
  const classes = [
    `d${Math.min(node.depth, MAX_DRAWN_DEPTH)}`,
    node.kind,
    node.onActivePath ? 'active' : ''
  ]
  return `<li class="${classes.join(' ').trim()}"><a href="#${attr(anchor(node.id))}" data-node="${attr(node.id)}">${node.fork ? '└ ' : ''}${mark} ${numberOf(node)}${text(node.title) || '(empty)'}</a>${labelOf(node)}</li>`
}

function nodeSection(
  node: ExportedNode,
  end: string,
  leafNode: string | null,
  cwd: string
): string {
  const notes = [text(node.timestamp)]
  if (node.id === leafNode) notes.push('the conversation is here')
  else if (node.onActivePath) notes.push('on the active branch')
  if (node.mergedFrom != null) {
    notes.push(`brought in from <a href="#${attr(anchor(node.mergedFrom))}">that node</a>`)
  }
  if (node.files.length > 0) {
    notes.push(`changed ${node.files.map((f) => `<code>${text(f)}</code>`).join(', ')}`)
  }
  const kind = kindPrefix(node.kind)
  const body = [
    `<section class="node ${node.kind}${node.onActivePath ? ' active' : ''}" id="${attr(anchor(node.id))}" data-id="${attr(node.id)}" data-parent="${attr(node.parentId ?? '')}" data-end="${attr(end)}">`,
    `<h2>${numberOf(node)}${kind}${text(node.title) || '(empty)'}${labelOf(node)}</h2>`,
    `<p class="meta">${notes.join(' · ')} <button type="button" data-branch="${attr(end)}" hidden>Read this branch</button></p>`
  ]
  if (node.summary !== null)
    body.push(`<blockquote class="summary text">${text(node.summary)}</blockquote>`)
  for (const entry of node.entries) body.push(...entryHtml(entry, cwd))
  body.push('</section>')
  return body.join('\n')
}

function entryHtml(entry: TranscriptEntry, cwd: string): string[] {
  // Harness messages are not the conversation; a summary's text is its node's, shown above.
  if (entry.hidden || entry.role === 'summary') return []
  return entryParts(entry, cwd).flatMap((part) => partHtml(part, entry))
}

function partHtml(part: EntryPart, entry: TranscriptEntry): string[] {
  switch (part.kind) {
    case 'text': {
      if (part.text.trim() === '') return []
      const who = entry.isPrompt ? 'prompt' : entry.role === 'user' ? 'user' : 'answer'
      const name = entry.isPrompt ? 'Prompt' : entry.role === 'user' ? 'User' : 'Answer'
      return [
        `<div class="entry ${who}"><div class="who">${name}</div><div class="text">${text(part.text)}</div></div>`
      ]
    }
    case 'thinking':
      return [
        `<details class="thinking"><summary>Thinking</summary><pre>${text(part.text)}</pre></details>`
      ]
    case 'tool_use':
      return [
        `<details class="tool"><summary><span class="tag">tool</span> ${text(part.call)}</summary><pre>${text(inputLines(part.input))}</pre></details>`
      ]
    case 'tool_result': {
      const lines = part.text.split('\n').length
      return [
        `<details class="result${part.isError ? ' error' : ''}"><summary>${part.isError ? '✘' : '✔'} result · ${lines} line${lines === 1 ? '' : 's'}</summary><pre>${text(part.text)}</pre></details>`
      ]
    }
    case 'other':
      return [`<p class="other">[${text(part.type)}]</p>`]
  }
}

function numberOf(node: ExportedNode): string {
  return node.promptNumber === null ? '' : `<span class="num">${node.promptNumber}</span> `
}

function labelOf(node: ExportedNode): string {
  return node.label === null ? '' : ` <span class="label">${text(node.label)}</span>`
}

/** An element id for a node: ids from the session file may hold anything, so it is attr()-ed. */
function anchor(id: string): string {
  return `n-${id}`
}

/**
 * Session text as HTML text: control and bidi characters escaped, then & < > as entities (a
 * quote ends nothing in a text node). Most strings hold none: they are returned as they are.
 */
export function text(value: string): string {
  const safe = escapeControlChars(value)
  return /[&<>]/.test(safe) ? safe.replace(/[&<>]/g, (c) => ENTITIES[c] ?? c) : safe
}

/** An attribute value (always double-quoted): quotes, newlines and tabs as entities too. */
function attr(value: string): string {
  return escapeControlChars(value).replace(/[&<>"'\n\t]/g, (c) => ENTITIES[c] ?? c)
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '\n': '&#10;',
  '\t': '&#9;'
}

function sha256(source: string): string {
  return `sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}`
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#535b6a;--line:#d0d5dd;--bg:#fff;--panel:#f5f7fa;--accent:#3b5bdb;--warn:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ec;--muted:#98a2b3;--line:#344054;--bg:#101418;--panel:#1a1f26;--accent:#8da2fb;--warn:#f97066}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.top{padding:16px 24px;border-bottom:1px solid var(--line)}
.top h1{margin:0 0 8px;font-size:18px}
.top dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
.top dt{color:var(--muted)}.top dd{margin:0;overflow-wrap:anywhere}
.legend,.views{color:var(--muted);margin:8px 0 0}
button{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:6px;background:var(--panel);color:var(--fg);cursor:pointer}
button:hover{border-color:var(--accent)}
.layout{display:grid;grid-template-columns:minmax(220px,30%) 1fr}
nav{position:sticky;top:0;height:100vh;overflow:auto;border-right:1px solid var(--line);background:var(--panel);padding:8px 0}
.outline{list-style:none;margin:0;padding:0}
.outline li{padding:1px 8px 1px calc(8px + var(--d,0)*14px);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.outline a{color:inherit;text-decoration:none}
.outline a:hover,.outline a:focus{text-decoration:underline}
.outline li:not(.active){color:var(--muted)}
.outline li.on-branch{background:color-mix(in srgb,var(--accent) 18%,transparent)}
.outline li.selected{outline:2px solid var(--accent);outline-offset:-2px}
main{padding:8px 24px 48px;min-width:0}
.node{border-bottom:1px solid var(--line);padding:12px 0}
.node:not(.active) h2{color:var(--muted)}
.node h2{font-size:15px;margin:0 0 4px}
.node:target,.node.selected{background:color-mix(in srgb,var(--accent) 8%,transparent)}
.num{display:inline-block;min-width:2em;color:var(--accent)}
.label{font-size:12px;font-weight:600;padding:0 6px;border-radius:8px;background:var(--accent);color:var(--bg)}
.meta{color:var(--muted);margin:0 0 8px;font-size:12px}
.entry{margin:6px 0}
.who{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.prompt .text{padding:6px 10px;border-left:3px solid var(--accent);background:var(--panel)}
.summary{margin:6px 0;padding:8px 12px;border-left:3px solid var(--muted);background:var(--panel)}
details{margin:4px 0}
details summary{cursor:pointer;color:var(--muted)}
details pre{margin:4px 0 0;padding:8px;background:var(--panel);white-space:pre-wrap;overflow-wrap:anywhere;max-height:32em;overflow:auto}
.result.error summary{color:var(--warn)}
.other{color:var(--muted)}
.tag{font-size:11px;padding:0 5px;border:1px solid var(--line);border-radius:4px}
`

// The page's only script: "Whole tree", "Active branch" and each node's "Read this branch"
// filter the nodes shown to one branch (a node's data-parent chain up from the branch's end);
// the outline marks the selected node and its branch. It reads the page's own attributes only.
const SCRIPT = `(function(){
var sections=new Map(),items=new Map();
document.querySelectorAll('section.node').forEach(function(s){sections.set(s.getAttribute('data-id'),s)});
document.querySelectorAll('nav a[data-node]').forEach(function(a){items.set(a.getAttribute('data-node'),a.parentElement)});
var status=document.getElementById('showing');
function branch(end){var ids=new Set(),at=end,steps=0;while(at&&sections.has(at)&&!ids.has(at)&&steps++<=sections.size){ids.add(at);at=sections.get(at).getAttribute('data-parent')}return ids}
function show(ids,what){sections.forEach(function(s,id){s.hidden=ids!==null&&!ids.has(id)});items.forEach(function(li,id){li.classList.toggle('on-branch',ids!==null&&ids.has(id))});status.textContent=what}
function select(id){items.forEach(function(li,key){li.classList.toggle('selected',key===id)});sections.forEach(function(s,key){s.classList.toggle('selected',key===id)})}
document.querySelectorAll('[hidden]').forEach(function(el){if(el.matches('.views,button[data-branch]'))el.hidden=false});
document.addEventListener('click',function(e){var t=e.target;if(!(t instanceof Element))return;
if(t.closest('#show-all')){show(null,'Showing the whole tree');return}
var b=t.closest('[data-branch]');if(b){var ids=branch(b.getAttribute('data-branch'));show(ids,'Showing one branch ('+ids.size+(ids.size===1?' node)':' nodes)'));var from=b.closest('section.node');if(from){select(from.getAttribute('data-id'));from.scrollIntoView()}return}
var a=t.closest('a[data-node]');if(a){var id=a.getAttribute('data-node'),s=sections.get(id);select(id);if(s&&s.hidden)show(branch(s.getAttribute('data-end')),'Showing one branch')}});
})();`
