// Worker threads running one of our own modules, under either runtime the app has:
//
// - the TypeScript sources (the CLI runs them through tsx, the tests through vitest): a worker
//   thread does not inherit the tsx hooks of the thread that starts it (Node 20), so it is
//   started with a two-line bootstrap that registers tsx and then imports the module;
// - the electron-vite bundle (out/main): each worker module is an entry of its own, built as
//   `<name>.js` beside the bundle that starts it (electron.vite.config.ts lists them).
//
// Starting one under tsx costs about half a second (tsx itself, then compiling the module's
// imports), so workers are kept for reuse (WorkerPool). They get the scrubbed environment
// children get (child-env.ts).
import { Worker } from 'node:worker_threads'
import { childEnv } from './child-env'

/**
 * `callerUrl`: the starting module's `import.meta.url`; the worker module `name` lies beside it
 * (`<name>.ts` in the sources, `<name>.js` in the bundle).
 */
export function startModuleWorker(callerUrl: string, name: string): Worker {
  const options = { env: childEnv() }
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options)
  const module = new URL(`./${name}.ts`, callerUrl).href
  const tsx = import.meta.resolve('tsx/esm/api')
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}) })`
  return new Worker(bootstrap, { ...options, eval: true })
}

/**
 * Workers of one module, one job at a time each. acquire() hands out an idle one or starts a
 * new one; release() takes back a worker whose job is done (one idle worker is kept, unref'd so
 * it never holds the process open). A worker whose job was abandoned is terminated instead.
 */
export class WorkerPool {
  private idle: Worker | null = null

  constructor(
    private readonly callerUrl: string,
    private readonly name: string
  ) {}

  acquire(): Worker {
    const worker = this.idle ?? startModuleWorker(this.callerUrl, this.name)
    this.idle = null
    worker.removeAllListeners()
    worker.ref()
    return worker
  }

  release(worker: Worker): void {
    worker.removeAllListeners()
    if (this.idle !== null) {
      void worker.terminate()
      return
    }
    worker.unref()
    // An idle worker that dies (it should not) is simply not handed out again.
    const forget = () => {
      if (this.idle === worker) this.idle = null
    }
    worker.once('exit', forget)
    worker.once('error', forget)
    this.idle = worker
  }
}
