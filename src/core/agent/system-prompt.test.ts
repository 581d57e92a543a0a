import { expect, test } from 'vitest'
import { buildSystemPrompt, localDate } from './system-prompt'

const tools = [
  { name: 'Read', description: 'r', input_schema: { type: 'object' as const } },
  { name: 'Edit', description: 'e', input_schema: { type: 'object' as const } }
]

test('the prompt names the workspace, the date and the tools, and is the same all day', () => {
  const morning = new Date(2026, 9, 22, 0, 0, 1)
  const evening = new Date(2026, 9, 22, 23, 59, 59)
  const at = (d: Date) =>
    buildSystemPrompt({ cwd: '/w/demo', date: localDate(d), tools, platform: 'linux' })
  expect(at(morning)).toBe(at(evening))
  expect(at(morning)).toContain('Workspace: /w/demo')
  expect(at(morning)).toContain('Today’s date: 2026-10-22')
  expect(at(morning)).toContain('Tools: Read, Edit')
  expect(at(morning)).not.toContain('checkpoint')
  expect(at(new Date(2026, 9, 23))).not.toBe(at(morning))
})

test('with the checkpoint pair, the prompt says when to use it', () => {
  const withPair = [
    ...tools,
    { name: 'checkpoint', description: 'c', input_schema: { type: 'object' as const } }
  ]
  expect(
    buildSystemPrompt({ cwd: '/w', date: '2026-10-22', tools: withPair, platform: 'linux' })
  ).toContain('call checkpoint')
})
