// A sub-agent's transcript kept as a file beside its session (Claude Code's
// `<session>/subagents/agent-<id>.jsonl`), read for the reader with the `<name>.meta.json` beside
// it (the agent's type, description, the call that started it).
import { basename, dirname, join } from 'node:path'
import { readRegularText } from '../../os/read-regular-file'
import { readJsonlFile } from '../jsonl'
import type { SidecarFile } from './types'

/** The transcript at `path` with its meta (null when it has none or it is no JSON); throws when the transcript cannot be read. */
export function readSidecarFile(path: string): SidecarFile {
  const name = basename(path)
  return {
    name,
    parsed: readJsonlFile(path),
    meta: readMeta(join(dirname(path), `${name.replace(/\.jsonl$/, '')}.meta.json`))
  }
}

function readMeta(file: string): unknown {
  try {
    const text = readRegularText(file)
    return text === null ? null : (JSON.parse(text) as unknown)
  } catch {
    return null
  }
}
