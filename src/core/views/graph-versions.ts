// Names each graph the studio builds with a version and keeps the last few, so a page holding one
// of them gets a delta (shared/graph-encoding.ts) instead of the whole graph again.
import { encodeGraph, graphDelta, type GraphUpdate } from '../../shared/graph-encoding'
import type { SessionGraph } from '../../shared/views'

/** Enough for a page a few shape changes behind (a turn is several); older ones get the whole graph. */
const KEPT = 8

/**
 * One count for the whole process: a studio opened again (another workspace, the same session)
 * never names a graph with a number a page may hold from the one before.
 */
let lastVersion = 0

export class GraphVersions {
  private kept: { version: number; graph: SessionGraph }[] = []

  /** Names a graph just built; returns its version. */
  record(graph: SessionGraph): number {
    const version = ++lastVersion
    this.kept.push({ version, graph })
    if (this.kept.length > KEPT) this.kept.shift()
    return version
  }

  /** `graph` (version `version`) for a page holding version `since`: a delta when one can say it. */
  update(graph: SessionGraph, version: number, since: number | undefined): GraphUpdate {
    const base = since === undefined ? undefined : this.kept.find((k) => k.version === since)
    const delta = base === undefined ? null : graphDelta(base.graph, base.version, graph, version)
    return delta ?? encodeGraph(graph, version)
  }
}
