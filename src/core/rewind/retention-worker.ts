// The daily retention a session's opening claimed and runs (pruneClaimed), in a worker thread
// (background-retention.ts starts it). On its first run in a workspace it reads every session
// log that backed files up (10,000 logs: seconds); on the host's main thread that kept the page
// waiting, and here it keeps nothing waiting. One job per worker: the lines for the user, then
// the thread ends.
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { pruneClaimed } from './retention'

export interface RetentionJob {
  home: string
  historyRoot: string
}

// The lowest priority, so the host's own work (the session list it builds meanwhile, the page's
// requests) goes first on a busy machine. On Linux a thread's priority is its own (setpriority of
// pid 0 is this thread); elsewhere it would be the whole process's, the host's too: left as is.
if (process.platform === 'linux') {
  try {
    setPriority(19)
  } catch {
    // Not allowed here (a container's limits): it runs at the host's priority.
  }
}

parentPort?.once('message', (job: RetentionJob) => {
  void pruneClaimed(job.home, job.historyRoot).then((lines) => parentPort?.postMessage(lines))
})
