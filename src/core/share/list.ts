// `share list` and the app's Shared sessions: the sessions a remote holds, from their summary
// refs alone (refs/rewind-studio/summaries/<id>: a commit and share.json, a few hundred bytes
// each), fetched into refs/rewind-studio/remotes/<remote>/summaries/ (pruned of what the remote
// dropped). Listing never fetches a session's log or backups: a pull does, for the one asked for.
// What a remote says (titles, names, branches) is someone else's text: masked and escaped here,
// for the terminal and the page alike.
import { shownOneLine } from '../../shared/shown-text'
import { SHARED_ID, type SharedList, type SharedSession } from '../../shared/share-views'
import { GitRepo } from './git'
import { SHARE_FILE, ShareMeta, remoteSummaries, sessionRef } from './layout'
import { pulledIds } from './pulled'

/** Sessions listed at most (a remote could hold any number of refs). */
const MAX_LISTED = 1000

export async function listShared(options: {
  home: string
  workspace: string
  remote?: string | undefined
}): Promise<SharedList> {
  const repo = await GitRepo.open(options.workspace)
  const remote = await repo.remote(options.remote)
  const prefix = remoteSummaries(remote)
  await repo.fetch(remote, [`+refs/rewind-studio/summaries/*:${prefix}*`], true)
  const refs = await repo.forEachRef(prefix, [
    '%(refname)',
    '%(objectname)',
    '%(authorname) %(authoremail)',
    '%(authordate:iso-strict)'
  ])
  let skipped = 0
  const found = refs.flatMap(([name = '', oid = '', by = '', at = '']) => {
    const id = name.slice(prefix.length)
    if (!SHARED_ID.test(id) || !/^[0-9a-f]{40,64}$/.test(oid)) {
      skipped++
      return []
    }
    return [{ id, oid, by, at }]
  })
  const listed = found.slice(0, MAX_LISTED)
  skipped += found.length - listed.length
  const metas = await readMetas(
    repo,
    listed.map((s) => s.oid)
  )
  const pulled = new Set(pulledIds(options.home, options.workspace))
  const ours = new Set(
    (await repo.forEachRef('refs/rewind-studio/sessions/', ['%(refname)'])).map(([name = '']) =>
      name.slice(sessionRef('').length)
    )
  )
  const sessions: SharedSession[] = listed.map(({ id, by, at }, i) => {
    const meta = metas[i] ?? null
    return {
      sessionId: id,
      title: shownOneLine(meta?.title ?? '').slice(0, 200),
      sharedBy: shownOneLine(by).slice(0, 200),
      sharedAt: meta?.sharedAt ?? at,
      code:
        meta?.code == null
          ? null
          : {
              commit: meta.code.commit,
              branch: meta.code.branch === null ? null : shownOneLine(meta.code.branch)
            },
      turns: meta?.counts.turns ?? 0,
      files: meta?.counts.files ?? 0,
      backups: meta?.counts.backups ?? 0,
      bytes: meta?.counts.bytes ?? 0,
      pulled: pulled.has(id),
      ours: ours.has(id)
    }
  })
  sessions.sort((a, b) => (a.sharedAt < b.sharedAt ? 1 : a.sharedAt > b.sharedAt ? -1 : 0))
  return { remote, remotes: await repo.remotes(), sessions, skipped }
}

/** Each summary's share.json, checked; null where it is missing or not what a push writes. */
async function readMetas(repo: GitRepo, commits: readonly string[]): Promise<(ShareMeta | null)[]> {
  const found = await repo.describe(commits.map((oid) => `${oid}:${SHARE_FILE}`))
  const readable = found.map((f) => (f?.type === 'blob' && f.size <= 64 * 1024 ? f.oid : null))
  const wanted = readable.filter((oid): oid is string => oid !== null)
  const contents = new Map<string, Buffer>()
  ;(await repo.readBlobs(wanted, wanted.length * 64 * 1024)).forEach((content, i) =>
    contents.set(wanted[i] ?? '', content)
  )
  return readable.map((oid) => {
    if (oid === null) return null
    try {
      return ShareMeta.parse(JSON.parse(contents.get(oid)?.toString('utf8') ?? ''))
    } catch {
      return null
    }
  })
}
