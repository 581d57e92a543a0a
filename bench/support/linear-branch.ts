// A linear session branch of a given number of turns, each a prompt, a Read and its result
// (2 KB), an Edit and its result, a file_change and an answer: the shape the summary benches
// summarize (bench/summarize-up-to.ts, bench/summarize-process.ts).
import { closeSync, openSync, writeSync } from 'node:fs'
import { SESSION_FORMAT_VERSION } from '../../src/core/session/records'

const words = 'the session tree keeps every branch and the summary replaces the older turns '

/** A linear branch: each turn a prompt, a Read, its result (2 KB), an Edit, its result, an answer. */
export function writeBranch(file: string, turns: number, cwd = '/work/app'): string {
  const fd = openSync(file, 'w')
  let n = 0
  let leaf: string | null = null
  let lastPrompt = ''
  const id = (k: number) => `01900000-0000-7000-8000-${k.toString(16).padStart(12, '0')}`
  const stamp = () => new Date(Date.parse('2026-01-01T00:00:00Z') + n * 1000).toISOString()
  const emit = (record: object) => writeSync(fd, `${JSON.stringify(record)}\n`)
  const node = (type: string, fields: object): string => {
    const uuid = id(++n)
    emit({ type, uuid, parentUuid: leaf, timestamp: stamp(), ...fields })
    leaf = uuid
    return uuid
  }
  emit({
    type: 'session',
    uuid: id(0),
    parentUuid: null,
    timestamp: stamp(),
    version: SESSION_FORMAT_VERSION,
    sessionId: id(0),
    cwd
  })
  for (let t = 0; t < turns; t++) {
    const file = `src/module${t % 50}.ts`
    lastPrompt = node('user', {
      message: { role: 'user', content: `Turn ${t}: change ${file}. ${words.repeat(2)}` }
    })
    const call = (name: string, input: object) =>
      node('assistant', {
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${t}_${name}`, name, input }],
          usage: { input_tokens: 1000 + t, output_tokens: 50 }
        }
      })
    const result = (name: string, text: string) =>
      node('user', {
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${t}_${name}`, content: text }]
        }
      })
    call('Read', { file_path: file })
    result('Read', words.repeat(26))
    call('Edit', { file_path: file, old_string: 'a', new_string: 'b' })
    result('Edit', `The file ${file} has been updated.`)
    emit({
      type: 'file_change',
      uuid: id(++n),
      parentUuid: leaf,
      timestamp: stamp(),
      checkpointUuid: lastPrompt,
      path: file,
      before: 'a'.repeat(64),
      after: 'b'.repeat(64),
      source: 'Edit'
    })
    node('assistant', {
      message: { role: 'assistant', content: [{ type: 'text', text: `Done: ${words.repeat(3)}` }] }
    })
  }
  closeSync(fd)
  return lastPrompt
}
