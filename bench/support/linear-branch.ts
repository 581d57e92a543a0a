// A linear session branch of a given number of turns, each a prompt, a Read and its result
// (2 KB), an Edit and its result, a file_change and an answer: the shape the summary benches
// summarize (bench/summarize-up-to.ts, bench/summarize-process.ts). Its records go through the
// tests' writer (test/session/synthetic.ts), which every generated session shares.
import { SyntheticRecords } from '../../test/session/synthetic'

const words = 'the session tree keeps every branch and the summary replaces the older turns '

/** A linear branch: each turn a prompt, a Read, its result (2 KB), an Edit, its result, an answer. */
export function writeBranch(file: string, turns: number, cwd = '/work/app'): string {
  const out = new SyntheticRecords(file, cwd)
  let lastPrompt = ''
  for (let t = 0; t < turns; t++) {
    const file = `src/module${t % 50}.ts`
    lastPrompt = out.node('user', {
      message: { role: 'user', content: `Turn ${t}: change ${file}. ${words.repeat(2)}` }
    })
    const call = (name: string, input: object) =>
      out.node('assistant', {
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${t}_${name}`, name, input }],
          usage: { input_tokens: 1000 + t, output_tokens: 50 }
        }
      })
    const result = (name: string, text: string) =>
      out.node('user', {
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${t}_${name}`, content: text }]
        }
      })
    call('Read', { file_path: file })
    result('Read', words.repeat(26))
    call('Edit', { file_path: file, old_string: 'a', new_string: 'b' })
    result('Edit', `The file ${file} has been updated.`)
    out.attach('file_change', {
      checkpointUuid: lastPrompt,
      path: file,
      before: 'a'.repeat(64),
      after: 'b'.repeat(64),
      source: 'Edit'
    })
    out.node('assistant', {
      message: { role: 'assistant', content: [{ type: 'text', text: `Done: ${words.repeat(3)}` }] }
    })
  }
  out.close()
  return lastPrompt
}
