// Which model answers, with which key, under which settings. The API key comes from
// ANTHROPIC_API_KEY or the host's secret store; without one, the built-in scripted model answers
// (the demo), and the user is told so.
import { join } from 'node:path'
import type { PermissionMode } from '../../shared/messages'
import type { Settings, SettingsUpdate } from '../../shared/views'
import { createModelClient, isScriptedSpec, SCRIPTED_PREFIX } from '../agent/model/create'
import { type IgnoredFilesPolicy, ignoredFilesPolicy } from '../files/ignored-files'
import { bashSandboxUnavailable } from '../os/bash-sandbox'
import { defaultMaxRuns } from '../parallel/max-runs'
import { envSecret } from '../os/env-secrets'
import type { ModelClient } from '../agent/model/model-client'
import { type CompactionSettings, DEFAULT_COMPACTION_THRESHOLD } from '../agent/summary/compaction'
import { DEFAULT_CONTEXT_WINDOW } from '../agent/summary/tokens'
import {
  applyOverrides,
  DEFAULT_MODEL,
  readSettings,
  type SettingsFile,
  writeSettings
} from '../settings'
import { StudioError } from './studio-error'
import type { SecretStore } from './secret-store'

export interface ModelSetupOptions {
  home: string
  appRoot: string
  secrets: SecretStore
  /** --model, --permission-mode, --setting: for this run only. */
  model: string | undefined
  permissionMode: PermissionMode | undefined
  settingOverrides: string[]
  /** The environment read (ANTHROPIC_MODEL, the key); default this process's, the key taken out of it. */
  env?: NodeJS.ProcessEnv
  /**
   * Without a key, the demo script answers instead of an API model (default). The terminal chat
   * turns this off for a model named with --model: the user asked for that model, so creating
   * its client fails with the line saying how to give it a key.
   */
  demoFallback?: boolean
}

export function demoScript(appRoot: string): string {
  return join(appRoot, 'demo', 'scripted-model.json')
}

export class ModelSetup {
  private runModel: string | undefined
  private runPermissionMode: PermissionMode | undefined
  private runOverrides: string[]
  private readonly env: NodeJS.ProcessEnv

  constructor(private readonly options: ModelSetupOptions) {
    this.runModel = options.model
    this.runPermissionMode = options.permissionMode
    this.runOverrides = options.settingOverrides
    this.env = options.env ?? process.env
  }

  private file(): SettingsFile {
    return applyOverrides(readSettings(this.options.home), this.runOverrides)
  }

  private apiKey(): { key: string | null; source: Settings['apiKeySource'] } {
    const fromEnv =
      this.options.env === undefined
        ? envSecret('ANTHROPIC_API_KEY')
        : this.options.env.ANTHROPIC_API_KEY
    if (fromEnv) return { key: fromEnv, source: 'env' }
    const stored = this.options.secrets.get()
    return stored ? { key: stored, source: 'settings' } : { key: null, source: 'none' }
  }

  /** The model asked for, before the no-key fallback. */
  private requestedModel(): string {
    return this.runModel ?? this.file().model ?? this.env.ANTHROPIC_MODEL ?? DEFAULT_MODEL
  }

  /** The model that will answer: the requested one, or the demo script when it has no key. */
  effectiveModel(): string {
    const requested = this.requestedModel()
    if (isScriptedSpec(requested) || this.apiKey().key !== null) return requested
    if (this.options.demoFallback === false) return requested
    return `${SCRIPTED_PREFIX}${demoScript(this.options.appRoot)}`
  }

  isScripted(): boolean {
    return isScriptedSpec(this.effectiveModel())
  }

  /** No key, so the demo script answers instead of the model asked for. */
  private demoStandsIn(): boolean {
    return this.effectiveModel() !== this.requestedModel()
  }

  notices(): string[] {
    const requested = this.requestedModel()
    const settings = this.runSettings()
    return [
      ...(!this.demoStandsIn()
        ? []
        : [
            `No API key: the built-in scripted demo model answers instead of ${requested}. Add a key in Settings or set ANTHROPIC_API_KEY.`
          ]),
      ...(settings.bashSandbox && bashSandboxUnavailable() !== null
        ? [
            `The Bash sandbox (setting bash.sandbox) cannot run here: ${bashSandboxUnavailable()}. Bash will refuse to run commands.`
          ]
        : [])
    ]
  }

  /** The settings the Settings view shows: runSettings and whether the Bash sandbox works here. */
  settings(): Settings {
    return { ...this.runSettings(), bashSandboxUnavailable: bashSandboxUnavailable() }
  }

  /**
   * The settings a run uses, without probing the machine: the Bash sandbox's probe starts
   * bubblewrap (~40 ms), which a summary or a compaction never needs.
   */
  runSettings(): Omit<Settings, 'bashSandboxUnavailable'> {
    const file = this.file()
    return {
      // The model asked for, which the settings edit and save; without a key the demo answers
      // instead (effectiveModel, the header's), and the notice says so. Showing the demo's here
      // saved it with any other change, so a key added later still met the demo model.
      model: this.requestedModel(),
      permissionMode: this.runPermissionMode ?? file.permissionMode ?? 'default',
      // The demo script calls checkpoint and rewind (its "explore the project with a checkpoint"):
      // where it stands in for the model, the tools are on unless set, and Settings says so.
      checkpointEnabled: file.checkpoint?.enabled ?? this.demoStandsIn(),
      compactionThreshold: file.compaction?.threshold ?? DEFAULT_COMPACTION_THRESHOLD,
      // Every Claude model takes 200,000 tokens; the scripted model is given the same unless set.
      contextWindow: file.compaction?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      summaryOnLeave: file.summary?.onLeave ?? 'ask',
      bashSandbox: file.bash?.sandbox ?? false,
      apiKeySource: this.apiKey().source,
      apiKeyWarning: this.options.secrets.warning
    }
  }

  /**
   * Saves the settings the user changed; what they set wins over this run's flags. A scripted
   * model whose file does not load is refused before anything is saved.
   */
  async update(update: SettingsUpdate): Promise<void> {
    if (update.model !== undefined && isScriptedSpec(update.model)) {
      await createModelClient(update.model, { baseDir: this.options.appRoot }).catch(
        (error: unknown) => {
          throw new StudioError('invalid_payload', (error as Error).message)
        }
      )
    }
    if (update.apiKey !== undefined) this.options.secrets.set(update.apiKey)
    const saved: SettingsFile = {}
    if (update.model !== undefined) {
      saved.model = update.model
      this.runModel = undefined
    }
    if (update.permissionMode !== undefined) {
      saved.permissionMode = update.permissionMode
      this.runPermissionMode = undefined
    }
    if (update.checkpointEnabled !== undefined) {
      saved.checkpoint = { enabled: update.checkpointEnabled }
      this.dropOverride('checkpoint.enabled')
    }
    if (update.compactionThreshold !== undefined || update.contextWindow !== undefined) {
      saved.compaction = {
        ...(update.compactionThreshold !== undefined
          ? { threshold: update.compactionThreshold }
          : {}),
        ...(update.contextWindow !== undefined ? { contextWindow: update.contextWindow } : {})
      }
      if (update.compactionThreshold !== undefined) this.dropOverride('compaction.threshold')
      if (update.contextWindow !== undefined) this.dropOverride('compaction.contextWindow')
    }
    if (update.summaryOnLeave !== undefined) {
      saved.summary = { onLeave: update.summaryOnLeave }
      this.dropOverride('summary.onLeave')
    }
    if (update.bashSandbox !== undefined) {
      saved.bash = { sandbox: update.bashSandbox }
      this.dropOverride('bash.sandbox')
    }
    if (Object.keys(saved).length > 0) writeSettings(this.options.home, saved)
  }

  /** What the user set wins over this run's --setting for the same key. */
  private dropOverride(key: string): void {
    this.runOverrides = this.runOverrides.filter((o) => !o.startsWith(`${key}=`))
  }

  /** Which ignored files file history backs up (the setting ignoredFiles). */
  ignoredFiles(): IgnoredFilesPolicy {
    return ignoredFilesPolicy(this.file().ignoredFiles)
  }

  /** The agent's compaction settings. */
  compaction(): CompactionSettings {
    const settings = this.runSettings()
    return { threshold: settings.compactionThreshold, contextWindow: settings.contextWindow }
  }

  /** parallel.maxRuns: how many parallel runs at once (default from the cores). */
  maxRuns(): number {
    return this.file().parallel?.maxRuns ?? defaultMaxRuns()
  }

  /** The model parallel runs use: `model` when the page names one, else the session's. */
  modelForRuns(model: string | undefined): { name: string; create(): Promise<ModelClient> } {
    if (model === undefined || model === this.effectiveModel()) {
      return { name: this.effectiveModel(), create: () => this.client() }
    }
    const key = this.apiKey().key
    return {
      name: model,
      create: () =>
        createModelClient(model, {
          ...(key !== null ? { apiKey: key } : {}),
          baseDir: this.options.appRoot
        })
    }
  }

  client(): Promise<ModelClient> {
    const key = this.apiKey().key
    return createModelClient(this.effectiveModel(), {
      ...(key !== null ? { apiKey: key } : {}),
      baseDir: this.options.appRoot
    })
  }
}
