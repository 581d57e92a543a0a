// Finding (issue 13, export): "Secrets that look like API keys are masked" in every export, as
// in every view the studio builds (finding 5 of the hardening review).
//
// A session whose prompt, answer, tool input, tool result, branch summary and label each hold a
// key: the Markdown, HTML and JSON exports hold none of them (the JSON's shape is unchanged,
// only the keys are masked), through the core and through `rewind-studio export`. The session
// log keeps them.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExportModel } from '../../src/core/export/export-model'
import { renderExport } from '../../src/core/export/render'
import { SessionStore } from '../../src/core/session/store'
import { runCli } from '../support/cli'

// Built at run time, so the test file itself holds nothing a secret scanner would flag.
const keys = {
  prompt: `sk-ant-api03-${'Xy7'.repeat(30)}AbCd`,
  answer: `ghp_${'k9Lm'.repeat(9)}`,
  input: `AKIA${'Q7ZX'.repeat(4)}`,
  result: `xoxb-1234567890-${'a1B2'.repeat(6)}`,
  summary: `sk-proj-${'Pq8'.repeat(12)}`,
  label: `AIza${'Sy9_'.repeat(8)}abc`
}

function sessionWithKeys() {
  const dir = mkdtempSync(join(tmpdir(), 'rs-export-mask-'))
  const home = join(dir, 'home')
  const store = SessionStore.create({ home, cwd: join(dir, 'ws') })
  const prompt = store.appendMessage({ role: 'user', content: `use ${keys.prompt}` })
  store.appendMessage({
    role: 'assistant',
    content: [
      { type: 'text', text: `token ${keys.answer}` },
      { type: 'tool_use', id: 't1', name: 'Bash', input: { command: `echo ${keys.input}` } }
    ]
  })
  store.appendMessage({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 't1', content: `SLACK=${keys.result}` }]
  })
  const answer = store.appendMessage({ role: 'assistant', content: 'done' })
  store.appendBranchSummary({ fromId: answer.uuid, summary: `kept ${keys.summary}` })
  store.appendLabel({ targetUuid: prompt.uuid, label: `key ${keys.label}` })
  store.close()
  return { home, file: store.file }
}

function expectNoKey(shown: string): void {
  for (const key of Object.values(keys)) expect(shown).not.toContain(key)
  expect(shown).toContain('masked')
}

describe('exports mask keys', () => {
  it('in Markdown, HTML and JSON, for the whole tree and a branch', () => {
    const { file } = sessionWithKeys()
    const store = SessionStore.open(file, { readOnly: true })
    try {
      const source = { tree: store.tree(), header: store.header, file }
      for (const format of ['md', 'html', 'json'] as const) {
        expectNoKey(renderExport(source, format, { kind: 'all' }).content)
        expectNoKey(
          renderExport(source, format, { kind: 'branch', leafUuid: store.leafUuid }).content
        )
      }
      const model = ExportModel.parse(
        JSON.parse(renderExport(source, 'json', { kind: 'all' }).content)
      )
      expect(model.nodes.map((n) => n.kind)).toEqual(['turn', 'branch_summary'])
      expect(model.nodes[0]?.label).toMatch(/^key AIza…\(\d+ chars, masked\)$/)
    } finally {
      store.close()
    }
    // The log keeps what was said.
    for (const key of Object.values(keys)) expect(readFileSync(file, 'utf8')).toContain(key)
  })

  it('in what `rewind-studio export` prints and writes', async () => {
    const { home, file } = sessionWithKeys()
    const printed = await runCli(['export', file, '--format', 'md'], {
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(printed.code).toBe(0)
    expectNoKey(printed.stdout)
    const out = join(home, '..', 'tree.html')
    const written = await runCli(['export', file, '--format', 'html', '-o', out], {
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(written.code).toBe(0)
    expectNoKey(readFileSync(out, 'utf8'))
  })
})
