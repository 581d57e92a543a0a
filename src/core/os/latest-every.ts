// Progress that comes faster than anyone reads it (a command's output, a summary's tokens, a
// restore's files) is sent on as its latest value at most every so often: the first value waits
// out the interval, later ones replace it meanwhile, and flush() sends what waits at once (the
// last file of a restore). close() drops what waits; nothing is sent after it.
export interface LatestEvery<T> {
  push(value: T): void
  flush(): void
  close(): void
}

export function latestEvery<T>(send: (value: T) => void, ms: number): LatestEvery<T> {
  let timer: NodeJS.Timeout | null = null
  let waiting: { value: T } | null = null
  let closed = false
  const flush = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
    const next = waiting
    waiting = null
    if (next !== null && !closed) send(next.value)
  }
  return {
    push(value) {
      if (closed) return
      waiting = { value }
      timer ??= setTimeout(flush, ms)
    },
    flush,
    close() {
      closed = true
      if (timer !== null) clearTimeout(timer)
      timer = null
      waiting = null
    }
  }
}
