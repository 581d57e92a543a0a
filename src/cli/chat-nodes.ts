// The chat's commands on the nodes of the tree: /tree (print it, pick a node, continue from it),
// /fork (continue in a new session holding the path to a node) and /label. Nodes are named as
// everywhere in the CLI (core/views/node-refs.ts): turn numbers, the active path's first.
import { forkSession } from '../core/session/fork'
import type { SessionStore } from '../core/session/store'
import { forkEnd, restoreInFork } from '../core/studio/fork-at-node'
import { buildSessionGraph, indexTurns, type TurnIndex } from '../core/views/session-graph'
import { type ListedNode, listNodes, nodeEnd, resolveNode } from '../core/views/node-refs'
import type { WorkspaceSession } from '../core/workspace/workspace-session'
import type { SessionTree } from '../core/session/tree'
import { escapeControlCharsOneLine } from '../shared/control-chars'
import { labelProblem } from '../shared/label-limit'
import { maskSecrets } from '../shared/mask-secrets'
import type { GraphNode, LeaveChoice, SessionGraph } from '../shared/views'
import { shownOneLine } from '../shared/shown-text'
import { onePath, restoreLines, say } from './format'

/** What the node commands need of the chat. */
export interface ChatSession {
  readonly work: WorkspaceSession
  readonly home: string
  /** The next line the user types, after `question`; null when the input ended. */
  ask(question: string): Promise<string | null>
  /** Goes on in `store` (a fork just made): the current session is closed. */
  switchTo(store: SessionStore): Promise<void>
  /** What to do with the branch a move leaves (setting summary.onLeave, asked when "ask"). */
  leaveChoice(): Promise<LeaveChoice>
  /** Prints a summary record's text under `title`. */
  printSummary(title: string, uuid: string): void
}

/** Lines /tree prints before it shows a window around where the conversation is. */
const MAX_TREE_LINES = 100

interface View {
  tree: SessionTree
  index: TurnIndex
  graph: SessionGraph
}

function view(store: SessionStore): View {
  const tree = store.tree()
  const index = indexTurns(tree)
  return { tree, index, graph: buildSessionGraph(tree, store.sessionId, index) }
}

/** The node holding the leaf (where the conversation is), or null before the first prompt. */
function leafNode({ tree, index, graph }: View): GraphNode | null {
  const owner = tree.leafUuid === null ? null : index.owner.get(tree.leafUuid)
  return graph.nodes.find((n) => n.id === owner) ?? null
}

/** A node in one line: its number (or · for a summary), title, label and short id. */
function describe(node: GraphNode, number: number | null): string {
  const kind = node.kind === 'turn' ? '' : node.kind === 'branch_summary' ? 'summary: ' : 'report: '
  const label = node.label === null ? '' : `  [${node.label}]`
  return `${number ?? '·'}. ${kind}${node.title || '(empty)'}${label}  (${node.id.slice(-8)})`
}

/**
 * The tree, one node a line: `>` where the conversation is, `*` the rest of the active path; a
 * chain stays at one indentation and every other branch indents under └. Over MAX_TREE_LINES
 * nodes (and without `all`), the lines around the conversation's node, the rest counted.
 */
export function treeLines(listed: ListedNode[], leaf: GraphNode | null, all: boolean): string[] {
  const at = Math.max(
    0,
    listed.findIndex((l) => l.node.id === leaf?.id)
  )
  const from =
    all || listed.length <= MAX_TREE_LINES
      ? 0
      : Math.max(0, Math.min(at - MAX_TREE_LINES + 20, listed.length - MAX_TREE_LINES))
  const to = all ? listed.length : Math.min(listed.length, from + MAX_TREE_LINES)
  const lines = listed.slice(from, to).map(({ node, depth, fork, number }) => {
    const mark = node.id === leaf?.id ? '>' : node.onActivePath ? '*' : ' '
    const indent = '  '.repeat(Math.min(depth, 20))
    return escapeControlCharsOneLine(
      `${mark} ${indent}${fork ? '└ ' : ''}${maskSecrets(describe(node, number))}`
    )
  })
  return [
    ...(from > 0
      ? [`  … ${from} earlier node${from === 1 ? '' : 's'} (/tree all shows every one)`]
      : []),
    ...lines,
    ...(to < listed.length
      ? [`  … ${listed.length - to} more node${listed.length - to === 1 ? '' : 's'} (/tree all)`]
      : [])
  ]
}

/** `/tree [all]`: prints the tree, then asks where to continue from (Enter stays). */
export async function treeCommand(chat: ChatSession, args: string[]): Promise<void> {
  const v = view(chat.work.store)
  if (v.graph.nodes.length === 0) {
    say('The tree is empty: each prompt you send adds a turn.')
    return
  }
  const leaf = leafNode(v)
  say('> where the conversation is, * the active path, └ a branch; [label]')
  for (const line of treeLines(listNodes(v.graph), leaf, args[0] === 'all')) say(line)
  const answer = (await chat.ask('Continue from which node? (number or id; Enter stays) '))?.trim()
  if (answer === undefined || answer === '') return
  const node = resolveNode(v.tree, v.graph, v.index, answer)
  const end = nodeEnd(v.tree, v.index, node)
  if (end === v.tree.leafUuid) {
    say('The conversation is there already.')
    return
  }
  // The app's "Continue from here": the conversation and the files to the node's end.
  const plan = await chat.work.planContinue(end)
  for (const path of plan.conflicts)
    say(`! ${onePath(path)} was changed since by another session: left alone`)
  const leave = await chat.leaveChoice()
  if (leave.mode === 'summarize') say('Summarizing the branch you leave… (Ctrl-C stops)')
  const result = await chat.work.apply(plan, leave)
  for (const line of restoreLines(result)) say(line)
  if (result.summaryUuid) chat.printSummary('Summary of the branch left', result.summaryUuid)
  say(`Continuing from ${nameOf(chat.work.store, node)}: your next prompt follows it.`)
}

/** `/fork [N|ID] [--restore]`: a new session holding the path to the node; the chat goes on there. */
export async function forkCommand(chat: ChatSession, args: string[]): Promise<void> {
  const restore = args.includes('--restore')
  const refs = args.filter((a) => a !== '--restore')
  if (refs.length > 1 || refs.some((a) => a.startsWith('--'))) {
    say('✘ Usage: /fork [N|ID] [--restore]')
    return
  }
  const origin = chat.work.store
  const end = forkEnd(origin.tree(), origin.sessionId, refs[0] ?? null)
  const plan = restore ? await chat.work.planSwitch(end) : null
  for (const path of plan?.conflicts ?? []) {
    say(`! ${onePath(path)} was changed since by another session: left alone`)
  }
  const fork = forkSession(chat.home, origin, end)
  const from = origin.sessionId
  await chat.switchTo(fork)
  say(`Forked into session ${fork.sessionId} (${escapeControlCharsOneLine(fork.file)}).`)
  say(`You continue there; session ${from} is unchanged (chat --resume ${from} goes back to it).`)
  if (plan !== null) {
    for (const line of restoreLines(await chat.work.apply(restoreInFork(plan, fork)))) say(line)
    say('The files are as they were at that node (/undo puts them back).')
  } else say('The files were left as they are (/fork N --restore brings that node’s files back).')
}

/** `/label [N|ID] TEXT` or `/label [N|ID] --clear`: without N, the node the conversation is at. */
export function labelCommand(chat: ChatSession, args: string[]): void {
  const clear = args.includes('--clear')
  const words = args.filter((a) => a !== '--clear')
  const v = view(chat.work.store)
  // The first word names the node when it is a number, or an id that names one.
  const first = words[0] ?? ''
  const isRef =
    /^\d+$/.test(first) || (/^[0-9a-f-]{6,}$/i.test(first) && tryResolve(v, first) !== null)
  const node = isRef ? resolveNode(v.tree, v.graph, v.index, first) : leafNode(v)
  const text = (isRef ? words.slice(1) : words).join(' ')
  if (node === null) {
    say('✘ Nothing to label yet: send a prompt first.')
    return
  }
  if (clear === (text.trim() !== '')) {
    say('✘ Usage: /label [N|ID] TEXT, or /label [N|ID] --clear')
    return
  }
  const problem = clear ? null : labelProblem(text)
  if (problem !== null) {
    say(`✘ ${problem}`)
    return
  }
  if (clear && node.label === null) {
    say(`${nameOf(chat.work.store, node)} has no label.`)
    return
  }
  chat.work.store.appendLabel({ targetUuid: node.id, label: clear ? null : text.trim() })
  const name = nameOf(chat.work.store, node)
  say(clear ? `Label removed from ${name}.` : `Labelled ${name}: ${maskSecrets(text.trim())}`)
}

function tryResolve(v: View, ref: string): GraphNode | null {
  try {
    return resolveNode(v.tree, v.graph, v.index, ref)
  } catch {
    return null // not an id after all: the label's first word
  }
}

/** A node as a reply names it, numbered as the tree is now: “3. title”. */
function nameOf(store: SessionStore, node: GraphNode): string {
  const number = listNodes(view(store).graph).find((l) => l.node.id === node.id)?.number ?? null
  return `“${shownOneLine(number === null ? node.title : `${number}. ${node.title}`)}”`
}
