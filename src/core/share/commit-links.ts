// Which git commits each turn made: HEAD is read (`git rev-parse`) when a turn's prompt opens its
// checkpoint and again when the turn ends; when it moved, the commits reachable from the new HEAD
// and not from the old one (`git rev-list`, at most 50 listed) go to the log as a `commit_link`
// record of that turn (docs/session-format.md). A commit the agent's Bash made and one the user
// made meanwhile count alike: both happened during the turn. Nothing is written into any .git and
// no hook is installed: the link is seen from outside, by git's plumbing, and needs nothing of the
// commit (why no `Rewind-Session:` trailer is added: docs/session-format.md, "Commits of a turn").
//
// Bounded: two short git processes per turn, each with git.ts's limits; a workspace that is no
// repository costs one probe per session, then nothing.
import { shownOneLine } from '../../shared/shown-text'
import type { SessionStore } from '../session/store'
import type { SessionTree } from '../session/tree'
import { GitRepo } from './git'

/** Commits listed in a record at most; the rest are counted. */
const MAX_LISTED = 50

export class TurnCommits {
  private repo: Promise<GitRepo | null> | null = null
  private turn: { promptUuid: string; head: string | null } | null = null
  /** The last turn's end, which the next turn's start waits for (records stay in order). */
  private ending: Promise<void> = Promise.resolve()

  constructor(
    private readonly workspace: string,
    private readonly log: Pick<SessionStore, 'appendCommitLink'>
  ) {}

  private git(): Promise<GitRepo | null> {
    this.repo ??= GitRepo.open(this.workspace).catch(() => null)
    return this.repo
  }

  /** A turn's prompt opened checkpoint `promptUuid`: HEAD now is where it starts. */
  async turnStarted(promptUuid: string): Promise<void> {
    await this.ending
    const repo = await this.git()
    if (repo === null) return
    const code = await repo.code().catch(() => null)
    this.turn = { promptUuid, head: code?.commit ?? null }
  }

  /** The turn ended: its commits, if HEAD moved, are recorded (in the background). */
  turnEnded(): void {
    const turn = this.turn
    this.turn = null
    if (turn === null) return
    this.ending = this.ending.then(() => this.record(turn)).catch(() => undefined)
  }

  /** Resolves once the last turn's record is written (or was not needed). */
  settled(): Promise<void> {
    return this.ending
  }

  private async record(turn: { promptUuid: string; head: string | null }): Promise<void> {
    const repo = await this.git()
    const code = await repo?.code()
    if (repo == null || code == null || code.commit === turn.head) return
    const run = await repo.run([
      'rev-list',
      `--max-count=${MAX_LISTED + 1}`,
      '--format=%H%x09%an <%ae>%x09%aI%x09%s',
      code.commit,
      ...(turn.head === null ? [] : [`^${turn.head}`])
    ])
    const commits = run.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('commit '))
      .map((line) => {
        const [oid = '', author = '', date = '', ...subject] = line.split('\t')
        return {
          oid,
          author: author.slice(0, 200),
          date,
          subject: subject.join('\t').slice(0, 200)
        }
      })
    this.log.appendCommitLink({
      checkpointUuid: turn.promptUuid,
      headBefore: turn.head,
      headAfter: code.commit,
      branch: code.branch,
      commits: commits.slice(0, MAX_LISTED),
      more: Math.max(0, commits.length - MAX_LISTED)
    })
  }
}

/** A commit of a turn as the inspector shows it: `here` says whether this repository holds it. */
export interface TurnCommit {
  oid: string
  subject: string
  author: string
  date: string
  here: boolean
}

/** The commits the turn of prompt `nodeId` made, from its `commit_link` records. */
export async function turnCommits(
  workspace: string,
  tree: SessionTree,
  nodeId: string
): Promise<TurnCommit[]> {
  const listed = tree.records.flatMap((record) => {
    const r = record as { type?: unknown; checkpointUuid?: unknown; commits?: unknown }
    if (r?.type !== 'commit_link' || r.checkpointUuid !== nodeId || !Array.isArray(r.commits)) {
      return []
    }
    return (r.commits as unknown[]).slice(0, MAX_LISTED).flatMap((c) => {
      const commit = c as Record<string, unknown> | null
      return typeof commit?.oid === 'string' && /^[0-9a-f]{40,64}$/.test(commit.oid)
        ? [
            {
              oid: commit.oid,
              subject: shownOneLine(String(commit.subject ?? '')).slice(0, 200),
              author: shownOneLine(String(commit.author ?? '')).slice(0, 200),
              date: shownOneLine(String(commit.date ?? '')).slice(0, 40)
            }
          ]
        : []
    })
  })
  if (listed.length === 0) return []
  const repo = await GitRepo.open(workspace).catch(() => null)
  const found =
    (await repo?.describe(listed.map((c) => `${c.oid}^{commit}`)).catch(() => null)) ?? []
  return listed.map((c, i) => ({ ...c, here: found[i] != null }))
}
