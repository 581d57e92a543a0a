// The scripted model's answers for a session to start parallel runs from, shared by the CLI's
// fixture (fixture.ts) and the app's walk (e2e/parallel-runs.spec.ts): turn 1 writes notes.md
// "v1", turn 2 makes it "v2"; runs start at turn 1, so their workspace must hold v1 while the
// user's holds v2.
//   "try red":  writes red.txt, reads notes.md and appends "red" to it (so it fails on v2);
//   "try blue": writes blue.txt;
//   "try green": edits notes.md without reading it first (turn 1 wrote it, so the run knows it).
// Imports nothing, so Playwright and vitest can both load it.

export const write = (file: string, content: string) => ({
  type: 'tool_use',
  name: 'Write',
  input: { file_path: file, content }
})

export const RUN_RULES = [
  {
    match: 'setup notes',
    responses: [[write('notes.md', 'v1\n')], [{ type: 'text', text: 'ok' }]]
  },
  {
    match: 'second notes',
    responses: [
      [{ type: 'tool_use', name: 'Read', input: { file_path: 'notes.md' } }],
      [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: 'notes.md', old_string: 'v1\n', new_string: 'v2\n' }
        }
      ],
      [{ type: 'text', text: 'v2 now' }]
    ]
  },
  {
    match: 'try red',
    responses: [
      [write('red.txt', 'red\n')],
      [{ type: 'tool_use', name: 'Read', input: { file_path: 'notes.md' } }],
      [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: 'notes.md', old_string: 'v1\n', new_string: 'v1\nred\n' }
        }
      ],
      [{ type: 'text', text: 'red done' }]
    ]
  },
  {
    match: 'try blue',
    responses: [[write('blue.txt', 'blue\n')], [{ type: 'text', text: 'blue done' }]]
  },
  {
    match: 'try green',
    responses: [
      [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: 'notes.md', old_string: 'v1\n', new_string: 'v1\ngreen\n' }
        }
      ],
      [{ type: 'text', text: 'green done' }]
    ]
  }
]
