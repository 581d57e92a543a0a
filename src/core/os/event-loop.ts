// Long synchronous work (a scan of a big workspace, a restore of a thousand files, the shard
// folders made ahead) gives the host's other work (IPC, a prompt being typed) its turn between
// batches: setImmediate runs after the I/O callbacks already waiting, unlike a resolved promise.
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
