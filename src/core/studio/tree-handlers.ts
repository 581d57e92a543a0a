// The tree, as the pages see it (the studio's views section): the graph, built once per shape of
// the tree and pushed to every page as deltas; the transcript and its windows, a node's detail,
// search, the timeline, the rewind picker's checkpoints, compare; bookmarks. Each projection is
// built lazily and dropped when the tree changes shape (changed()), never per streamed token.
// What it shows has strings that look like API keys masked (shared/mask-secrets.ts).
//
// It also keeps the files marker ("changed since") true between pushes: the folders of the files
// the session touched are watched (touched-files-watch.ts), and a page learns when the marker
// says something else than the last push did.
import type { Handlers } from '../../shared/contract'
import type { GraphUpdate } from '../../shared/graph-encoding'
import { maskSecretsIn } from '../../shared/mask-secrets'
import { shownText } from '../../shared/shown-text'
import {
  type CheckpointView,
  type CompareView,
  type FileDiff,
  type NodeDetail,
  type SearchEntry,
  type SessionGraph,
  type TimelineEntry,
  type TranscriptEntry,
  type TranscriptWindow,
  TOOL_NAMES
} from '../../shared/views'
import { unifiedDiff } from '../rewind/file-diff'
import { realPathOf } from '../session/paths'
import type { FileChangeAction } from '../session/records'
import type { SubagentRun } from '../session/foreign/types'
import type { SessionTree } from '../session/tree'
import { turnCommits } from '../share/commit-links'
import { type CompareSources, buildCompareView, compareFileDiff } from '../views/compare-view'
import { GraphVersions } from '../views/graph-versions'
import { nodeEnd } from '../views/node-refs'
import { buildSearchIndex } from '../views/search-view'
import {
  buildSessionGraph,
  buildTranscript,
  cutRecordForViews,
  indexTurns,
  nodeSummary,
  ownerNode,
  ownerTitle,
  rawRecordsOf,
  subagentNodeId,
  subagentNodes,
  type TurnIndex
} from '../views/session-graph'
import { timelineEntries, timelineStep } from '../views/timeline-view'
import { type TranscriptAnchor, transcriptWindow } from '../views/transcript-window'
import { turnUsage } from '../views/turn-usage'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'
import { TouchedFilesWatch } from './touched-files-watch'
import type { ViewedSession } from './viewed-session'

type TreeChannel =
  | 'session:graph'
  | 'session:graphUpdate'
  | 'session:transcript'
  | 'session:transcriptRange'
  | 'session:node'
  | 'session:searchIndex'
  | 'session:label'
  | 'session:checkpoints'
  | 'timeline:list'
  | 'compare'
  | 'compare:file'

const ok = { ok: true as const }

export function treeHandlers(tree: StudioTree): Pick<Handlers, TreeChannel> {
  return {
    'session:graph': () => tree.graph(),
    'session:graphUpdate': ({ since }) => tree.graphUpdate(since),
    'session:transcript': async ({ leafUuid }) => tree.transcript(leafUuid),
    'session:transcriptRange': async ({ leafUuid, anchor, before, after }) =>
      tree.transcriptRange(leafUuid, anchor, before, after),
    'session:node': ({ nodeId }) => tree.node(nodeId),
    'session:searchIndex': async () => tree.searchIndex(),
    'session:label': async ({ nodeId, label }) => (tree.label(nodeId, label), ok),
    'session:checkpoints': async ({ leafUuid }) => tree.checkpoints(leafUuid),
    'timeline:list': () => tree.timeline(),
    compare: ({ a, b }) => tree.compare(a, b),
    'compare:file': ({ a, b, path }) => tree.compareFile(a, b, path)
  }
}

export class StudioTree {
  private turnIndex: TurnIndex | null = null
  /** The graph of the tree's current shape, and the record its files are at. */
  private graphCache: { graph: SessionGraph; filesAt: string | null; version: number } | null = null
  /** The graphs built lately, by version: the page gets deltas against them. */
  private readonly graphVersions = new GraphVersions()
  private pushedVersion: number | undefined
  /** What the last graph pushed said of the files (the marker's "changed since"). */
  private pushedChangedSince: boolean | undefined
  /** The folders of the files the session touched, watched for the marker (see recheckFiles). */
  private readonly touchedWatch: TouchedFilesWatch
  /** How many records the tree had when touchedWatch was last given its paths. */
  private watchedRecords = -1
  /** The last branch transcript built (unmasked), for the windows the page asks for. */
  private transcriptCache: { leafUuid: string | null; entries: TranscriptEntry[] } | null = null
  private searchCache: SearchEntry[] | null = null
  private generation = 0

  constructor(private readonly ctx: StudioContext) {
    this.touchedWatch = new TouchedFilesWatch(realPathOf(ctx.cwd), () => this.recheckFiles())
  }

  index(): TurnIndex {
    this.turnIndex ??= indexTurns(this.ctx.viewTree())
    return this.turnIndex
  }

  /**
   * The graph, built once per shape of the tree (never per streamed token). Whether the files
   * changed since is looked at on every call: a stat per file the session touched, so a hand
   * edit shows the next time the renderer asks.
   */
  async graph(): Promise<SessionGraph> {
    const { graph, version } = await this.versionedGraph()
    this.tellFilesMarker(graph, version)
    return graph
  }

  /** The graph in the page's compact form: a delta from version `since` when it is still kept. */
  async graphUpdate(since: number | undefined): Promise<GraphUpdate> {
    const { graph, version } = await this.versionedGraph()
    this.tellFilesMarker(graph, version)
    return this.graphVersions.update(graph, version, since)
  }

  private async versionedGraph(): Promise<{ graph: SessionGraph; version: number }> {
    const { graph, filesAt, version } = this.graphCache ?? (await this.buildGraph())
    // Another tool's session records no after-state to compare the disk with.
    const changedSince =
      this.ctx.viewed === null &&
      !this.ctx.pulled &&
      this.ctx.work.engine.filesChangedSince(filesAt)
    return { graph: { ...graph, filesAt: { ...graph.filesAt, changedSince } }, version }
  }

  private async buildGraph(): Promise<NonNullable<StudioTree['graphCache']>> {
    const generation = this.generation
    const viewed = this.ctx.viewed
    const timeline = await this.engineTimeline()
    const tree = this.ctx.viewTree()
    const index = this.index()
    // A pulled session's files were never here: this machine's are at none of its nodes.
    const filesAt =
      viewed !== null ? rescuedTo(tree, timeline) : this.ctx.pulled ? null : timeline.filesAt
    const graph = buildSessionGraph(tree, viewed?.sessionId ?? this.ctx.store.sessionId, index, {
      filesAt: { nodeId: ownerNode(index, filesAt), changedSince: false },
      undo: timelineStep(tree, index, timeline.undoable),
      redo: timelineStep(tree, index, timeline.redoable),
      running: this.ctx.work.agent.running,
      answering: viewed?.writerAtWork() === true
    })
    if (viewed !== null) graph.nodes.push(...subagentNodes(viewed.subagents(), index, graph.nodes))
    const built = { graph, filesAt, version: this.graphVersions.record(graph) }
    // Another change may have landed while timeline() read its journals: keep only a fresh graph.
    if (generation === this.generation) this.graphCache = built
    return built
  }

  /** What "Search the session" looks through, per node: built once per shape, masked. */
  searchIndex(): SearchEntry[] {
    this.searchCache ??= maskSecretsIn(buildSearchIndex(this.ctx.viewTree(), this.index()))
    return this.searchCache
  }

  /** Every rewind, switch and continue, oldest first, named for people. */
  async timeline(): Promise<TimelineEntry[]> {
    return timelineEntries(this.ctx.viewTree(), this.index(), await this.engineTimeline(true))
  }

  /**
   * Our session's timeline, or the viewed session's rescue restores (its companion log);
   * `wholeReach`: RewindEngine.timeline's.
   */
  private engineTimeline(wholeReach = false) {
    const viewed = this.ctx.viewed
    return viewed === null
      ? this.ctx.work.engine.timeline(wholeReach)
      : viewed.timeline(realPathOf(this.ctx.cwd), wholeReach)
  }

  /** The prompts on the path to `leafUuid` (null: the active path), as the rewind picker lists them. */
  checkpoints(leafUuid: string | null): CheckpointView[] {
    const tree = this.ctx.viewTree()
    if (leafUuid !== null && tree.get(leafUuid) === undefined) {
      throw new StudioError('not_found', `No message ${leafUuid} in this session.`)
    }
    return tree.checkpoints(tree.pathTo(leafUuid ?? tree.leafUuid)).map((c) => ({
      index: c.index,
      uuid: c.uuid,
      prompt: shownText(c.prompt),
      filesChanged: c.filesChanged
    }))
  }

  async compare(a: string, b: string): Promise<CompareView> {
    return maskSecretsIn(buildCompareView(await this.compareSources(), a, b))
  }

  async compareFile(a: string, b: string, path: string): Promise<FileDiff> {
    return maskSecretsIn(compareFileDiff(await this.compareSources(), a, b, path))
  }

  private async compareSources(): Promise<CompareSources> {
    const viewed = this.ctx.viewed
    return {
      tree: this.ctx.viewTree(),
      index: this.index(),
      nodes: (await this.graph()).nodes,
      // A foreign session's file_change records name its tool's backups.
      blobs:
        viewed === null ? this.ctx.work.history.blobs : { read: (ref) => viewed.readBackup(ref) },
      disk: this.ctx.work.engine.disk,
      // The same caveat as its rescue restore: what the tool's backups hold, in its reader's words
      // (a tool that keeps none says so: its sides are the names of the files it changed, no more).
      caveat: viewed === null ? null : viewed.reader.keeps
    }
  }

  /** The tree changed shape: drop the projections and push the new graph to the renderer. */
  changed(): void {
    this.generation++
    this.turnIndex = null
    this.graphCache = null
    this.searchCache = null
    this.transcriptCache = null
    // No request awaits the push: a graph that cannot be built is said here (a notice, the stack
    // to the host's log), or its rejection would be unhandled and end the host (issue 26: opening
    // a pi session did).
    this.versionedGraph()
      .then(({ graph, version }) => this.pushGraph(graph, version))
      .catch((error: unknown) => {
        console.error(`The graph push failed: ${(error as Error)?.stack ?? String(error)}`)
        this.ctx.notice(
          'error',
          `The session's graph could not be drawn: ${(error as Error)?.message ?? String(error)}`
        )
      })
    this.watchTouchedFiles()
    // A move, a summary or a new message changes what the next request holds: the header's meter.
    this.ctx.emit('agent:event', {
      type: 'context_usage',
      usage: this.ctx.work.agent.contextUsage()
    })
  }

  /** Another session was opened: its touched files are given to the watch afresh. */
  opened(): void {
    this.watchedRecords = -1
    this.changed()
  }

  /**
   * Pushes the graph to every page. Each push is a delta from the one before, so a page that got
   * them all follows along; one that missed some asks with the version it holds.
   */
  private pushGraph(graph: SessionGraph, version: number): void {
    const update = this.graphVersions.update(graph, version, this.pushedVersion)
    this.pushedVersion = version
    this.pushedChangedSince = graph.filesAt.changedSince
    this.ctx.emit('session:graphUpdate', update)
  }

  /**
   * Gives the watch the files our session touched: every path a file_change record names (the
   * marker's state holds each). Looked at again when the log grew, once a turn is over (the
   * checks wait for its end anyway); none while another tool's session is shown (no marker).
   */
  private watchTouchedFiles(): void {
    if (this.ctx.work.agent.running) return
    if (this.ctx.viewed !== null) {
      this.watchedRecords = -1
      this.touchedWatch.follow([])
      return
    }
    const tree = this.ctx.store.tree()
    if (tree.records.length === this.watchedRecords) return
    this.watchedRecords = tree.records.length
    this.touchedWatch.follow([...new Set(tree.turnFileChanges().map((change) => change.path))])
  }

  /**
   * A touched file changed on disk (touched-files-watch.ts): the graph is pushed when the marker
   * says something else than the last push did. Not while the agent or a restore writes: they
   * push the graph when they are done.
   */
  private recheckFiles(): void {
    if (this.ctx.viewed !== null || this.ctx.work.agent.running || this.ctx.operation !== null)
      return
    void this.versionedGraph()
      .then(({ graph, version }) => this.tellFilesMarker(graph, version))
      // The next request reads the disk again and says what failed.
      .catch(() => undefined)
  }

  /**
   * Every page learns what the files marker says when it says something else than the last push:
   * found by the watch, or by a page asking (on focus, a change the watch could not see), so the
   * pages agree and the watch compares with what they hold.
   */
  private tellFilesMarker(graph: SessionGraph, version: number): void {
    if (this.ctx.work.agent.running || this.ctx.operation !== null) return
    if (graph.filesAt.changedSince !== this.pushedChangedSince) this.pushGraph(graph, version)
  }

  /** Bookmarks a node of the graph (null removes the bookmark); the graph shows it at once. */
  label(nodeId: string, label: string | null): void {
    this.ctx.requireWritable()
    if (this.ctx.store.tree().get(nodeId) === undefined) {
      throw new StudioError('not_found', `No node ${nodeId} in this session.`)
    }
    this.ctx.store.appendLabel({ targetUuid: nodeId, label })
    this.ctx.shapeChanged()
  }

  transcript(leafUuid: string | null): TranscriptEntry[] {
    return maskSecretsIn(this.branchTranscript(leafUuid))
  }

  /** A window of a branch's transcript; only the entries sent are masked. */
  transcriptRange(
    leafUuid: string | null,
    anchor: TranscriptAnchor,
    before: number,
    after: number
  ): TranscriptWindow {
    return maskSecretsIn(transcriptWindow(this.branchTranscript(leafUuid), anchor, before, after))
  }

  /** Built once per shape of the tree and branch: a page scrolling asks for many windows. */
  private branchTranscript(leafUuid: string | null): TranscriptEntry[] {
    if (this.transcriptCache?.leafUuid === leafUuid) return this.transcriptCache.entries
    // A sub-agent's node (another tool's session): its own transcript, not the conversation's.
    const run = this.ctx.viewed?.subagents().find((r) => subagentNodeId(r) === leafUuid)
    if (run !== undefined) return this.subagentTranscript(run)
    const tree = this.ctx.viewTree()
    if (leafUuid !== null && tree.get(leafUuid) === undefined) {
      throw new StudioError('not_found', `No message ${leafUuid} in this session.`)
    }
    const entries = buildTranscript(tree, leafUuid ?? tree.leafUuid, this.index())
    this.transcriptCache = { leafUuid, entries }
    return entries
  }

  /** A sub-agent's whole transcript, each entry its node's. */
  private subagentTranscript(run: SubagentRun): TranscriptEntry[] {
    const nodeId = subagentNodeId(run)
    return buildTranscript(run.tree, run.tree.leafUuid).map((e) => ({ ...e, nodeId }))
  }

  async node(nodeId: string): Promise<NodeDetail> {
    const graph = await this.graph()
    const node = graph.nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    const viewed = this.ctx.viewed
    const run = viewed?.subagents().find((r) => subagentNodeId(r) === nodeId)
    if (run !== undefined) {
      // A sub-agent's node holds its whole transcript.
      const entries = this.subagentTranscript(run)
      const raw = run.tree.records.map((record) => ({
        line: null,
        record: cutRecordForViews(record)
      }))
      return maskSecretsIn({ node, entries, files: [], summary: null, usage: null, raw })
    }
    const tree = this.ctx.viewTree()
    const entries = buildTranscript(tree, node.branchLeafUuid, this.index()).filter(
      (entry) => entry.nodeId === nodeId
    )
    const files = await this.turnDiffs(nodeId)
    const raw = rawRecordsOf(tree, this.index(), nodeId, this.ctx.viewed?.lines ?? null)
    return maskSecretsIn({
      node,
      entries,
      files,
      summary: this.summaryOf(nodeId),
      usage: turnUsage(entries.map((entry) => tree.get(entry.uuid))),
      raw,
      commits: await turnCommits(this.ctx.cwd, tree, nodeId)
    })
  }

  /** Each file a turn changed: its content before the turn → after it. */
  private async turnDiffs(nodeId: string): Promise<NodeDetail['files']> {
    const byPath = new Map<
      string,
      {
        before: string | null
        after: string | null
        afterUnknown: boolean
        beforeUnknown: boolean
        actions: FileChangeAction[]
      }
    >()
    for (const change of this.ctx.viewTree().fileChanges(nodeId)) {
      const seen = byPath.get(change.path)
      byPath.set(change.path, {
        before: seen ? seen.before : change.before,
        after: change.after,
        afterUnknown: change.afterUnknown === true,
        beforeUnknown: seen ? seen.beforeUnknown : change.beforeUnknown === true,
        actions: [...(seen?.actions ?? []), ...(change.action === undefined ? [] : [change.action])]
      })
    }
    const viewed = this.ctx.viewed
    const tool = viewed === null ? 'The tool' : TOOL_NAMES[viewed.format]
    const blobs = this.ctx.work.history.blobs
    const content = async (ref: string | null) =>
      viewed !== null
        ? viewed.content(ref)
        : ref === null
          ? null
          : await blobs.get(ref).catch(() => null)
    return Promise.all(
      [...byPath].map(async ([path, { before, after, afterUnknown, beforeUnknown, actions }]) =>
        beforeUnknown
          ? { path, diff: '', outsideChange: false, note: noContentNote(tool, actions) }
          : afterUnknown
            ? {
                path,
                diff: '',
                outsideChange: false,
                note: `${tool} keeps only the content before each change: how this turn left the file was never saved (the next prompt's snapshot would have said).`
              }
            : {
                path,
                diff: unifiedDiff(path, await content(before), await content(after)),
                outsideChange: false
              }
      )
    )
  }

  private summaryOf(nodeId: string): NodeDetail['summary'] {
    const tree = this.ctx.viewTree()
    const record = tree.get(nodeId)
    if (record === undefined) return null
    const summary = nodeSummary(record)
    if (summary === null || record.type !== 'compaction') return summary
    // A compaction also says from which turn the model reads word for word again.
    const kept = ownerNode(this.index(), record.firstKeptUuid)
    return {
      ...summary,
      keptFrom: kept === null ? null : { nodeId: kept, title: ownerTitle(tree, this.index(), kept) }
    }
  }

  /** Where a node ends on its branch (node-refs.ts): a fork's end, where "Continue" goes. */
  async endOfNode(nodeId: string): Promise<string> {
    const node = (await this.graph()).nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    return nodeEnd(this.ctx.viewTree(), this.index(), node)
  }

  close(): void {
    this.touchedWatch.close()
  }
}

/**
 * Where the files of a viewed session stand: before the prompt of the last rescue restore still
 * done, else where the tool left them (its leaf).
 */
function rescuedTo(
  tree: SessionTree,
  timeline: Awaited<ReturnType<ViewedSession['timeline']>>
): string | null {
  const done = timeline.actions.filter((a) => a.state === 'done').at(-1)
  if (done?.checkpointUuid == null) return tree.leafUuid
  return tree.get(done.checkpointUuid)?.parentUuid ?? null
}

const ACTION_WORDS: Record<FileChangeAction, string> = {
  added: 'added',
  updated: 'updated',
  deleted: 'deleted',
  'moved-away': 'moved away',
  'moved-here': 'moved here'
}

/** A turn's change to a file whose content the tool never kept: what its log says it did. */
function noContentNote(tool: string, actions: readonly FileChangeAction[]): string {
  const did = actions.length === 0 ? 'changed' : actions.map((a) => ACTION_WORDS[a]).join(', then ')
  return `${did[0]?.toUpperCase() ?? ''}${did.slice(1)} by this turn. ${tool} keeps no copy of the files it changes: their content before and after this turn was never saved, so there is no diff, and nothing to restore.`
}
