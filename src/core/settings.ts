// User settings: $REWIND_STUDIO_HOME/settings.json, overridden for one run by
// `--setting key=value` (a dotted key; the value is read as JSON when it parses, else as text).
// Unknown keys are kept, so a newer version's settings survive an older one saving.
import { CodedError } from '../shared/coded-error'
import { renameSync } from 'node:fs'
import { dirname, join } from 'node:path'
import * as z from 'zod'
import { PermissionMode } from '../shared/messages'
import { CompactionThreshold, ContextWindow, SummaryOnLeave } from '../shared/summary-settings'
import { ensurePrivateDir, writePrivateFileSync } from './os/private-files'
import { FileTooLargeError, NotRegularFileError, readRegularText } from './os/read-regular-file'

/**
 * Built on its first parse (z.lazy): a command whose data home holds no settings file, given no
 * `--setting`, never parses one, and building and first running the schema cost ~2 ms of CPU.
 */
export const SettingsFile = z.lazy(() =>
  z.looseObject({
    model: z.string().min(1).optional(),
    permissionMode: PermissionMode.optional(),
    checkpoint: z.looseObject({ enabled: z.boolean().optional() }).optional(),
    compaction: z
      .looseObject({
        threshold: CompactionThreshold.optional(),
        contextWindow: ContextWindow.optional()
      })
      .optional(),
    summary: z.looseObject({ onLeave: SummaryOnLeave.optional() }).optional(),
    /** sandbox: run Bash confined to the workspace (core/os/bash-sandbox.ts). */
    bash: z.looseObject({ sandbox: z.boolean().optional() }).optional(),
    /** Which files git ignores Bash change detection backs up (core/files/ignored-files.ts). */
    ignoredFiles: z
      .looseObject({
        maxFiles: z.number().int().min(0).optional(),
        maxMb: z.number().min(0).optional(),
        skipFolders: z.array(z.string().min(1)).optional()
      })
      .optional(),
    /** maxRuns: parallel runs at once (core/parallel/launcher.ts; default from the cores). */
    parallel: z.looseObject({ maxRuns: z.number().int().min(1).max(8).optional() }).optional(),
    /** Where other tools keep their sessions (sources/homes.ts); environment variables win. */
    sources: z
      .looseObject({
        claudeCodeHome: z.string().min(1).optional(),
        piHome: z.string().min(1).optional(),
        ohMyPiHome: z.string().min(1).optional(),
        codexHome: z.string().min(1).optional(),
        geminiHome: z.string().min(1).optional(),
        openCodeHome: z.string().min(1).optional()
      })
      .optional(),
    /** Workspaces opened before, newest first (studio/workspace-host.ts). */
    recentWorkspaces: z.array(z.string()).optional()
  })
)
export type SettingsFile = z.infer<typeof SettingsFile>

export const DEFAULT_MODEL = 'claude-sonnet-4-5'

export class SettingsError extends CodedError {
  override name = 'SettingsError'
  constructor(message: string) {
    super('invalid_payload', message)
  }
}

export function settingsPath(home: string): string {
  return join(home, 'settings.json')
}

/** Far more than ten recent workspaces and every setting take. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024

export function readSettings(home: string): SettingsFile {
  const file = settingsPath(home)
  let raw: unknown
  try {
    // A FIFO there is refused, never waited on, and a huge file never read (every start reads
    // this file; ours are a few kB).
    const text = readRegularText(file, MAX_SETTINGS_BYTES)
    if (text === null) return {}
    raw = JSON.parse(text)
  } catch (error) {
    if (error instanceof NotRegularFileError || error instanceof FileTooLargeError)
      throw new SettingsError(`${error.message}; remove it.`)
    throw new SettingsError(
      `${file} is not valid JSON (${(error as Error).message}); fix or remove it.`
    )
  }
  const parsed = SettingsFile.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    throw new SettingsError(`${file} has invalid settings: ${problems}`)
  }
  return parsed.data
}

/** Writes the merged settings atomically (temp file, then rename). */
export function writeSettings(home: string, update: SettingsFile): SettingsFile {
  const current = readSettings(home)
  const merged: Record<string, unknown> = { ...current, ...update }
  // A group ({"checkpoint": {...}}) is merged key by key: setting one key keeps its siblings.
  for (const [key, value] of Object.entries(update)) {
    const before = (current as Record<string, unknown>)[key]
    if (isGroup(value) && isGroup(before)) merged[key] = { ...before, ...value }
  }
  const file = settingsPath(home)
  ensurePrivateDir(dirname(file))
  writePrivateFileSync(`${file}.tmp`, `${JSON.stringify(merged, null, 2)}\n`)
  renameSync(`${file}.tmp`, file)
  return merged as SettingsFile
}

function isGroup(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Applies `key=value` overrides (`checkpoint.enabled=true`, `bash.sandbox=true`) to a settings object. */
export function applyOverrides(settings: SettingsFile, overrides: string[]): SettingsFile {
  // The settings as readSettings gave them are checked: only what an override changes is new.
  if (overrides.length === 0) return settings
  const result: Record<string, unknown> = structuredClone(settings)
  for (const override of overrides) {
    const eq = override.indexOf('=')
    if (eq <= 0) throw new SettingsError(`--setting expects key=value, got "${override}".`)
    const path = override.slice(0, eq).split('.')
    const text = override.slice(eq + 1)
    let value: unknown = text
    try {
      value = JSON.parse(text)
    } catch {
      // Plain text (a model name, say) is the value as written.
    }
    let node = result
    for (const key of path.slice(0, -1)) {
      const next = node[key]
      node[key] = typeof next === 'object' && next !== null ? next : {}
      node = node[key] as Record<string, unknown>
    }
    node[path[path.length - 1] as string] = value
  }
  const parsed = SettingsFile.safeParse(result)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    throw new SettingsError(`Invalid --setting: ${problems}`)
  }
  return parsed.data
}
