// A generated Claude Code transcript of realistic shape, for bench/foreign-open.ts: the records the
// real CLI writes (test/fixtures/claude-code: 2.1.197), in its proportions. Each turn: a snapshot
// before the prompt (every tracked file), the prompt, an attachment, a streamed answer whose text
// and tool_use blocks are one record each under one message id, progress records, tool results
// with their toolUseResult, a snapshot update when a new file is first changed, the final answer
// and a turn_duration record. Every 40th prompt goes back to an earlier turn (a /rewind branch).
import { closeSync, openSync, writeSync } from 'node:fs'

const WORDS =
  'the model reads the file then edits the function and runs the tests again until they pass with the new config'.split(
    ' '
  )

function seeded(seed: number): () => number {
  let x = seed >>> 0
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0
    return x / 2 ** 32
  }
}

/** Writes about `targetBytes` of transcript to `file`; returns its line count. */
export function writeClaudeCodeTranscript(file: string, targetBytes: number, seed = 1): number {
  const random = seeded(seed)
  const text = (chars: number) => {
    let s = ''
    while (s.length < chars) s += `${WORDS[Math.floor(random() * WORDS.length)]} `
    return s.slice(0, chars)
  }
  const sessionId = '7d7a2229-dbc1-4214-af1e-e197f89a6e19'
  const cwd = '/home/me/project'
  let n = 0
  const uuid = () => `01a22ae4-14be-71f0-b137-${(++n).toString(16).padStart(12, '0')}`
  const t0 = Date.parse('2026-11-30T21:43:51.000Z')
  const time = () => new Date(t0 + n * 250).toISOString()
  const base = () => ({
    isSidechain: false,
    userType: 'external',
    entrypoint: 'cli',
    cwd,
    sessionId,
    version: '2.1.197',
    gitBranch: 'main'
  })
  const fd = openSync(file, 'w')
  let bytes = 0
  let lines = 0
  const write = (record: object) => {
    const line = `${JSON.stringify(record)}\n`
    writeSync(fd, line)
    bytes += Buffer.byteLength(line)
    lines++
  }
  const tracked: Record<string, object> = {}
  const turnEnds: string[] = []
  let parent: string | null = null
  let turn = 0
  try {
    while (bytes < targetBytes) {
      turn++
      if (turn % 40 === 0 && turnEnds.length > 10) parent = turnEnds[turnEnds.length - 10] ?? null
      const prompt = uuid()
      write({
        type: 'file-history-snapshot',
        messageId: prompt,
        snapshot: { messageId: prompt, trackedFileBackups: tracked, timestamp: time() },
        isSnapshotUpdate: false
      })
      write({
        parentUuid: parent,
        ...base(),
        type: 'user',
        message: { role: 'user', content: text(60 + Math.floor(random() * 200)) },
        uuid: prompt,
        timestamp: time(),
        permissionMode: 'acceptEdits'
      })
      const attachment = uuid()
      write({
        parentUuid: prompt,
        ...base(),
        attachment: { type: 'todo_reminder', content: text(200) },
        type: 'attachment',
        uuid: attachment,
        timestamp: time()
      })
      let at = attachment
      for (let step = 0; step < 3; step++) {
        const messageId = `msg_${turn}_${step}`
        const say = uuid()
        write({
          parentUuid: at,
          ...base(),
          message: {
            model: 'claude-sonnet-4-5',
            id: messageId,
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: text(120 + Math.floor(random() * 300)) }],
            stop_reason: null,
            usage: { input_tokens: 10, output_tokens: 10, cache_read_input_tokens: 900 }
          },
          requestId: `req_${turn}_${step}`,
          type: 'assistant',
          uuid: say,
          timestamp: time()
        })
        const call = uuid()
        const toolUseId = `toolu_${turn}_${step}`
        const path = `src/file${(turn * 3 + step) % 200}.ts`
        write({
          parentUuid: say,
          ...base(),
          message: {
            model: 'claude-sonnet-4-5',
            id: messageId,
            type: 'message',
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: toolUseId,
                name: step === 0 ? 'Read' : 'Edit',
                input: { file_path: `${cwd}/${path}`, old_string: text(80), new_string: text(90) }
              }
            ],
            stop_reason: 'tool_use',
            usage: { input_tokens: 10, output_tokens: 10 }
          },
          requestId: `req_${turn}_${step}`,
          type: 'assistant',
          uuid: call,
          timestamp: time()
        })
        let hook = call
        for (let p = 0; p < 2; p++) {
          const progress = uuid()
          write({
            parentUuid: hook,
            ...base(),
            type: 'progress',
            data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: 'PreToolUse:Edit' },
            toolUseID: toolUseId,
            parentToolUseID: toolUseId,
            uuid: progress,
            timestamp: time()
          })
          hook = progress
        }
        if (step > 0 && !(path in tracked)) {
          tracked[path] = { backupFileName: null, version: 1, backupTime: time() }
          write({
            type: 'file-history-snapshot',
            messageId: call,
            snapshot: { messageId: prompt, trackedFileBackups: tracked, timestamp: time() },
            isSnapshotUpdate: true
          })
        } else if (path in tracked) {
          tracked[path] = {
            backupFileName: `${(turn * 7919).toString(16).padStart(16, '0')}@v${turn}`,
            version: turn,
            backupTime: time()
          }
        }
        const output = text(300 + Math.floor(random() * 1200))
        const result = uuid()
        write({
          parentUuid: call,
          ...base(),
          type: 'user',
          message: {
            role: 'user',
            content: [{ tool_use_id: toolUseId, type: 'tool_result', content: output }]
          },
          uuid: result,
          timestamp: time(),
          toolUseResult: { type: 'text', file: { filePath: `${cwd}/${path}`, content: output } },
          sourceToolAssistantUUID: call
        })
        at = result
      }
      const answer = uuid()
      write({
        parentUuid: at,
        ...base(),
        message: {
          model: 'claude-sonnet-4-5',
          id: `msg_${turn}_end`,
          type: 'message',
          role: 'assistant',
          content: [{ type: 'text', text: text(200) }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 10 }
        },
        type: 'assistant',
        uuid: answer,
        timestamp: time()
      })
      const duration = uuid()
      write({
        parentUuid: answer,
        ...base(),
        type: 'system',
        subtype: 'turn_duration',
        durationMs: 1200,
        isMeta: false,
        uuid: duration,
        timestamp: time()
      })
      turnEnds.push(duration)
      parent = duration
    }
    write({ type: 'last-prompt', leafUuid: parent, sessionId })
  } finally {
    closeSync(fd)
  }
  return lines
}
