// Compare: the user picks a first node, then a second one (or the current files); the main
// process rebuilds each side's files from the backups and both conversations from their common
// ancestor. A diff the view left out (a large compare) is asked for when its file is opened.
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { useCompareStore } from '../stores/compare-store'
import { attempt } from './report'

export function startCompare(nodeId: string): void {
  useAppStore.getState().setCompareFrom(nodeId)
}

export function cancelCompare(): void {
  useAppStore.getState().setCompareFrom(null)
}

export async function openCompare(a: string, b: string): Promise<void> {
  useAppStore.getState().setCompareFrom(null)
  const store = useCompareStore.getState()
  store.setCompare({ state: 'loading', a, b })
  try {
    const view = await getBridge().request('compare', { a, b })
    useCompareStore.getState().setCompare({ state: 'ready', a, b, view })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    useCompareStore.getState().setCompare({ state: 'failed', a, b, message })
  }
}

export function closeCompare(): void {
  useCompareStore.getState().setCompare({ state: 'closed' })
}

export async function loadCompareDiff(path: string): Promise<void> {
  const compare = useCompareStore.getState().compare
  if (compare.state !== 'ready' || useCompareStore.getState().diffs[path] !== undefined) return
  const file = await attempt(`Comparing ${path}`, () =>
    getBridge().request('compare:file', { a: compare.a, b: compare.b, path })
  )
  if (file !== null) useCompareStore.getState().addDiff(path, file.diff)
}
