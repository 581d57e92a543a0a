// A read-only view of an oh-my-pi session (~/.omp/agent/sessions/<encoded cwd>/<time>_<uuidv7>.jsonl).
// oh-my-pi writes pi's version 3 entries (pi.ts maps them), with two differences:
// - the file may open with a title slot: `{"type":"title","v":1,"title","source","updatedAt","pad"}`
//   padded to exactly 256 bytes with its newline, which oh-my-pi rewrites in place as the title
//   changes (so the file is not strictly append-only there); then comes the `session` header
//   (which may carry `title` too). The slot is kept raw and its title goes on our header;
// - sub-agent and advisor transcripts are session files of their own in the folder named like
//   the session file minus `.jsonl`: each is drawn as a sub-agent run (not linked to a tool
//   call: nothing in the parent names it).
// Later title changes are `title_change` entries, kept raw like every entry we do not draw.
import { basename, dirname, join } from 'node:path'
import { SessionTree } from '../tree'
import { isObject, stringOrNull } from '../json'
import { PiMapper, looksLikePi } from './pi'
import { foreignRecord } from './raw'
import type { Emit, ForeignMapper, ForeignReader, SidecarFile, SubagentRun } from './types'

export const ohMyPi: ForeignReader = {
  format: 'oh-my-pi',
  detect: (values) => isTitleSlot(values[0]) && looksLikePi(values[1]),
  mapper: (sidecars) => new OhMyPiMapper(sidecars),
  sidecarDir: (file) => join(dirname(file), basename(file, '.jsonl'))
}

function isTitleSlot(v: unknown): boolean {
  return isObject(v) && v.type === 'title' && v.v === 1
}

class OhMyPiMapper implements ForeignMapper {
  private readonly pi = new PiMapper('oh-my-pi')
  private title: string | null = null
  private first = true
  private readonly runs: SubagentRun[]

  constructor(sidecars: readonly SidecarFile[]) {
    this.runs = sidecars.map((file) => {
      const tree = new SessionTree()
      const mapper = new PiMapper('oh-my-pi')
      file.parsed.values.forEach((v, i) =>
        mapper.add(v, file.parsed.lines[i] ?? 0, (r) => tree.addRecord(r))
      )
      const firstPrompt = tree.checkpoints(tree.pathTo(tree.leafUuid))[0]?.prompt
      return {
        id: basename(file.name, '.jsonl'),
        toolUseId: null,
        parentUuid: null,
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
    return this.runs
  }
}
