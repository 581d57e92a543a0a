// A read-only view of an oh-my-pi session (~/.omp/agent/sessions/<encoded cwd>/<time>_<uuidv7>.jsonl).
// oh-my-pi writes pi's version 3 entries (pi.ts maps them), with these differences:
// - newer versions open the file with a title slot: `{"type":"title","v":1,"title","source",
//   "updatedAt","pad"}` padded to exactly 256 bytes with its newline, which oh-my-pi rewrites in
//   place as the title changes (so the file is not strictly append-only there); then comes the
//   `session` header (which may carry `title` too). The slot is kept raw and its title goes on
//   our header. 5.7.x writes no slot: the title is in the header (`title`, rewritten into the
//   first line by setSessionTitle), which is what tells its files from pi's;
// - sub-agent and advisor transcripts are session files of their own in the folder named like
//   the session file minus `.jsonl` (5.7.x: `<taskId>.jsonl`, beside `<taskId>.in.md` and
//   `.out.md`): each is drawn as a sub-agent run, under the task tool call whose result names
//   its taskId (`details.results[].taskId`) when one does.
// Later title changes are `title_change` entries, kept raw like every entry we do not draw.
import { basename, dirname, join } from 'node:path'
import { SessionTree } from '../tree'
import { isObject, stringOrNull } from '../json'
import { PiMapper, looksLikePi } from './pi'
import { addMapped, foreignRecord } from './raw'
import type { Emit, ForeignMapper, ForeignReader, SidecarFile, SubagentRun } from './types'

export const ohMyPi: ForeignReader = {
  format: 'oh-my-pi',
  detect: (values) =>
    (isTitleSlot(values[0]) && looksLikePi(values[1])) ||
    (looksLikePi(values[0]) && typeof (values[0] as { title?: unknown }).title === 'string'),
  mapper: (sidecars) => new OhMyPiMapper(sidecars),
  sidecarDir: (file) => join(dirname(file), basename(file, '.jsonl')),
  keeps: 'oh-my-pi keeps no backups of the files it changes: there is nothing to restore them from.'
}

function isTitleSlot(v: unknown): boolean {
  return isObject(v) && v.type === 'title' && v.v === 1
}

/** What a task tool call's result says of each sub-agent it ran (5.7.x's TaskToolDetails). */
interface TaskRun {
  toolCallId: string
  title: string | null
}

class OhMyPiMapper implements ForeignMapper {
  private readonly pi = new PiMapper('oh-my-pi')
  private title: string | null = null
  private first = true
  private readonly runs: SubagentRun[]
  /** Per taskId, the call that ran it; per tool call id, the entry holding the call. */
  private readonly tasks = new Map<string, TaskRun>()
  private readonly callOwner = new Map<string, string>()

  constructor(sidecars: readonly SidecarFile[]) {
    this.runs = sidecars.map((file) => {
      const tree = new SessionTree()
      const mapper = new PiMapper('oh-my-pi')
      file.parsed.values.forEach((v, i) =>
        mapper.add(v, file.parsed.lines[i] ?? 0, (r) => addMapped(tree, r))
      )
      const firstPrompt = tree.checkpoints(tree.pathTo(tree.leafUuid))[0]?.prompt
      return {
        id: basename(file.name, '.jsonl'),
        toolUseId: null,
        parentUuid: null,
        parentRunId: null,
        title: firstPrompt?.split('\n', 1)[0] ?? basename(file.name, '.jsonl'),
        source: file.name,
        tree
      }
    })
  }

  get problems() {
    return this.pi.problems
  }

  get backups() {
    return null
  }

  add(value: unknown, line: number, emit: Emit): void {
    this.noteTasks(value)
    if (this.first && isTitleSlot(value)) {
      this.first = false
      this.title = stringOrNull((value as { title?: unknown }).title)
      // The header comes next; the slot is kept raw after it (the tree wants the header first).
      this.slot = { value, line }
      return
    }
    this.first = false
    this.pi.add(value, line, (record, at) => {
      if (isObject(record) && record.type === 'session' && this.title !== null)
        record.title ??= this.title
      emit(record, at)
      if (this.slot !== null && isObject(record) && record.type === 'session') {
        emit(foreignRecord(null, this.slot.value), this.slot.line)
        this.slot = null
      }
    })
  }

  private slot: { value: unknown; line: number } | null = null

  subagents(): SubagentRun[] {
    return this.runs.map((run) => {
      const task = this.tasks.get(run.id)
      if (task === undefined) return run
      return {
        ...run,
        toolUseId: task.toolCallId,
        parentUuid: this.callOwner.get(task.toolCallId) ?? null,
        title: task.title ?? run.title
      }
    })
  }

  /** The tool calls of an entry, and the sub-agents a task call's result names. */
  private noteTasks(value: unknown): void {
    if (!isObject(value) || value.type !== 'message' || !isObject(value.message)) return
    const m = value.message
    const id = stringOrNull(value.id)
    if (m.role === 'assistant' && Array.isArray(m.content) && id !== null) {
      for (const block of m.content) {
        if (isObject(block) && block.type === 'toolCall' && typeof block.id === 'string')
          this.callOwner.set(block.id, id)
      }
    }
    const callId = stringOrNull(m.toolCallId)
    const results = isObject(m.details) ? m.details.results : undefined
    if (m.role !== 'toolResult' || callId === null || !Array.isArray(results)) return
    for (const result of results) {
      const taskId = isObject(result) ? stringOrNull(result.taskId) : null
      if (taskId === null || !isObject(result)) continue
      const title = stringOrNull(result.description) ?? stringOrNull(result.task)
      this.tasks.set(taskId, { toolCallId: callId, title: title?.split('\n', 1)[0] ?? null })
    }
  }
}
