// Write: creates a file or replaces one the agent has read as it is now.
import { createTwoFilesPatch } from 'diff'
import * as z from 'zod'
import { assertSeenAsIs, guardedWrite } from './guarded-write'
import { describePath, resolveToolPath } from './paths'
import { readExistingText, splitLines } from './text-files'
import type { Tool } from './tool'

const WriteInput = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('The file to write: absolute, or relative to the workspace root'),
  content: z.string().describe('The whole new content of the file')
})
type WriteInput = z.infer<typeof WriteInput>

export const writeTool: Tool<WriteInput> = {
  name: 'Write',
  description: [
    'Writes a file, replacing it if it exists. Missing parent folders are created.',
    'An existing file must have been read first (Read), and must not have changed since: otherwise the write is refused.',
    'Prefer Edit to change part of an existing file; use Write for new files or complete rewrites.'
  ].join('\n'),
  inputSchema: WriteInput,
  permission: 'edit',
  describeCall: (input, cwd) => `Write(${describePath(input.file_path, cwd)})`,
  approvalDetail: (input) => ({ label: 'Content', text: input.content }),
  async execute(input, ctx) {
    const target = resolveToolPath(ctx, input.file_path)
    const previous = readExistingText(target)
    assertSeenAsIs(ctx, target, previous)
    const warning = await guardedWrite(ctx, target, 'Write', input.content)
    const lineCount = splitLines(input.content).length
    const summary =
      previous === null
        ? `Created ${target.display} (${lineCount} lines)`
        : `Updated ${target.display} (${lineCount} lines)`
    return {
      isError: false,
      content: warning === null ? summary : `${summary}\n${warning}`,
      details: {
        path: target.display,
        created: previous === null,
        patch: createTwoFilesPatch(target.display, target.display, previous ?? '', input.content)
      }
    }
  }
}
