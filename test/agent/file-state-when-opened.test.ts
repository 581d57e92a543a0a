// The read-before-edit table is worked out from the branch when it is first asked, not when the
// session opens (file-state.ts rehydrate): what it holds is still the branch as it was when the
// leaf last moved, not what was appended after.
import { expect, test } from 'vitest'
import { join } from 'node:path'
import { apiModel, makeHarness } from '../support/agent-harness'

test('a change appended after the table was rehydrated is not in it when it is first asked', () => {
  // No turn is sent: the model is never called.
  const h = makeHarness({ model: apiModel('http://127.0.0.1:9') })
  const prompt = h.store.appendMessage({ role: 'user', content: 'write notes.md' })
  h.store.appendMessage({
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'tu_1', name: 'Write', input: { file_path: 'notes.md' } }]
  })
  // What file history records of the model's write.
  h.store.appendFileChange({
    checkpointUuid: prompt.uuid,
    path: 'notes.md',
    before: null,
    after: 'a'.repeat(64),
    source: 'Write'
  })
  const abs = join(h.ws.root, 'notes.md')

  // The branch as the model left it: notes.md is the model's own write.
  h.agent.rehydrateFileState()
  // Then a command's change of the same file lands before anything asks the table.
  h.store.appendFileChange({
    checkpointUuid: prompt.uuid,
    path: 'notes.md',
    before: 'a'.repeat(64),
    after: 'b'.repeat(64),
    source: 'Bash'
  })
  expect(h.agent.fileState.canEdit(abs)).toBe(true)

  // Rehydrated again, the command's change is the file's latest on the branch.
  h.agent.rehydrateFileState()
  expect(h.agent.fileState.canEdit(abs)).toBe(false)
})
