// The agent, as the pages drive it (the studio's agent section): a prompt sent, the turn
// stopped, the permission requests it waits on answered. The agent's stream goes to every page
// as it comes, masked (shared/mask-secrets.ts); a permission request is the exception: the user
// approves exactly what would run. Every page shows a waiting request, and the others take it
// down once one answered.
import type { Handlers } from '../../shared/contract'
import { maskSecretsIn } from '../../shared/mask-secrets'
import type { AgentEvent, PermissionRequest } from '../../shared/views'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'

type AgentChannel = 'agent:send' | 'agent:stop' | 'agent:answerPermission'

const ok = { ok: true as const }

export function agentHandlers(agent: StudioAgent): Pick<Handlers, AgentChannel> {
  return {
    'agent:send': async ({ prompt }) => (agent.send(prompt), ok),
    'agent:stop': async () => (await agent.stop(), ok),
    'agent:answerPermission': async ({ requestId, allow }) => (
      agent.answerPermission(requestId, allow),
      ok
    )
  }
}

export class StudioAgent {
  private readonly pendingPermissions = new Map<
    string,
    { request: PermissionRequest; resolve: (allow: boolean) => void }
  >()

  constructor(private readonly ctx: StudioContext) {}

  /** The permission requests waiting for an answer (a page opened later shows them too). */
  pending(): PermissionRequest[] {
    return [...this.pendingPermissions.values()].map((p) => p.request)
  }

  send(prompt: string): void {
    this.ctx.requireWritable()
    this.ctx.requireIdle()
    if (prompt.trim() === '') throw new StudioError('invalid_payload', 'The prompt is empty.')
    // The agent reports its own failures (a notice per failure), so only the unexpected is added.
    void this.ctx.work.agent
      .send(prompt)
      .catch((error: unknown) => this.ctx.notice('error', (error as Error).message))
      .finally(() => this.ctx.shapeChanged())
  }

  /** Stops the running turn and resolves once it has wound down, so a new prompt is taken. */
  async stop(): Promise<void> {
    const stopped = this.ctx.work.agent.stop()
    for (const [id, pending] of this.pendingPermissions) {
      this.pendingPermissions.delete(id)
      pending.resolve(false)
      this.ctx.emit('agent:permissionResolved', { requestId: id })
    }
    await stopped
  }

  /** The agent's question before a tool runs (WorkspaceSession's askPermission). */
  askPermission(request: PermissionRequest): Promise<boolean> {
    return new Promise((resolve) => {
      this.pendingPermissions.set(request.requestId, { request, resolve })
      this.ctx.emit('agent:permission', request)
    })
  }

  answerPermission(requestId: string, allow: boolean): void {
    const pending = this.pendingPermissions.get(requestId)
    if (pending === undefined) {
      throw new StudioError('not_found', 'That permission request is no longer waiting.')
    }
    this.pendingPermissions.delete(requestId)
    pending.resolve(allow)
    // Every window showed the question: the others take it down now.
    this.ctx.emit('agent:permissionResolved', { requestId })
  }

  /** What the agent streams (WorkspaceSession's onEvent), to every page. */
  onAgentEvent(event: AgentEvent): void {
    // A streamed piece is too short to hold a whole key: the renderer masks the text it builds.
    this.ctx.emit('agent:event', event.type === 'block_delta' ? event : maskSecretsIn(event))
    if (event.type === 'message_end') this.ctx.shapeChanged()
  }
}
