// For the agent's tests: a real workspace and session in temp dirs, an Agent over them with the
// given model, every event it emits, and answers to its permission requests.
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PermissionMode } from '../../src/shared/messages'
import type { AgentEvent, PermissionRequest } from '../../src/shared/views'
import { Agent } from '../../src/core/agent/agent'
import type { AgentOptions } from '../../src/core/agent/agent'
import { AnthropicModel } from '../../src/core/agent/model/anthropic'
import type { ModelClient } from '../../src/core/agent/model/model-client'
import { builtinTools } from '../../src/core/agent/tools'
import { makeWorkspace } from './tool-workspace'
import type { TestWorkspace } from './tool-workspace'
import { SessionStore } from '../../src/core/session/store'

export interface Harness {
  ws: TestWorkspace
  home: string
  store: SessionStore
  agent: Agent
  events: AgentEvent[]
  permissionRequests: PermissionRequest[]
  checkpoints: string[]
  /** Builds another agent over the same session (as a resumed process would). */
  reopen(model: ModelClient, extra?: Partial<AgentOptions>): Agent
}

export interface HarnessOptions {
  model: ModelClient
  permissionMode?: PermissionMode
  checkpointTools?: boolean
  /** Answer to every permission request (default: allow). */
  allow?: (req: PermissionRequest) => boolean | Promise<boolean>
  onEvent?: (e: AgentEvent, agent: Agent) => void
  now?: () => Date
  compaction?: AgentOptions['compaction']
}

export function apiModel(baseURL: string, maxRetries = 2): AnthropicModel {
  return new AnthropicModel({ apiKey: 'test-key', model: 'claude-test', baseURL, maxRetries })
}

export function makeHarness(options: HarnessOptions): Harness {
  const ws = makeWorkspace()
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'rs-home-')))
  const store = SessionStore.create({ home, cwd: ws.root })
  const events: AgentEvent[] = []
  const permissionRequests: PermissionRequest[] = []
  const checkpoints: string[] = []
  const build = (
    model: ModelClient,
    session: SessionStore,
    extra: Partial<AgentOptions> = {}
  ): Agent => {
    const agent: Agent = new Agent({
      session,
      cwd: ws.root,
      model,
      tools: builtinTools(),
      permissionMode: options.permissionMode ?? 'bypassPermissions',
      askPermission: async (req) => {
        permissionRequests.push(req)
        return (await options.allow?.(req)) ?? true
      },
      guard: ws.guard,
      onCheckpoint: async (uuid) => {
        checkpoints.push(uuid)
      },
      onEvent: (e) => {
        events.push(e)
        options.onEvent?.(e, agent)
      },
      checkpointTools: options.checkpointTools ?? false,
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.compaction !== undefined ? { compaction: options.compaction } : {}),
      ...extra
    })
    return agent
  }
  const agent = build(options.model, store)
  return {
    ws,
    home,
    store,
    agent,
    events,
    permissionRequests,
    checkpoints,
    reopen: (model, extra) => build(model, store, extra)
  }
}

/** Text of the notices emitted, by level. */
export function notices(events: AgentEvent[], level: 'info' | 'warning' | 'error'): string[] {
  return events.flatMap((e) => (e.type === 'notice' && e.level === level ? [e.message] : []))
}
