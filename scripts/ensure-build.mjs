// Builds what is missing or older than its sources, so `npm start`, the CLI, `cli serve` and the
// test suites never run a stale build:
//
// - the app (electron-vite: main, preload, renderer into out/), for the window and the web host;
// - the CLI (scripts/build-cli.mjs: out/cli), for the rewind-studio command. Right after
//   `npm install` the first command builds it (a second or two), then every command starts from
//   JavaScript.
//
// Builds are serialized by a lock file in out/: processes starting together (a test suite) wait
// for one build instead of writing the same folder at once.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)))

/**
 * spawnSync, loaded only when a build runs: every command starts through this file, and
 * node:child_process costs ~2 ms to load (the rewind command itself never loads it).
 */
function spawnBuild(...args) {
  return process.getBuiltinModule('node:child_process').spawnSync(...args)
}

const APP = {
  outputs: ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'],
  inputs: ['src', 'electron.vite.config.ts', 'package.json']
}
const CLI = {
  outputs: ['out/cli/index.js', 'out/cli/search-worker.js', 'out/cli/retention-worker.js'],
  // What the command is built from (the renderer, main and preload are not part of it).
  inputs: ['src/cli', 'src/core', 'src/shared', 'src/web', 'scripts/build-cli.mjs', 'package.json']
}

/**
 * The newest mtime under `path`; 0 when it does not exist (a copy holding only the build).
 * Tests beside the sources (`*.test.ts`) are not built, so they are not stat'ed: every command
 * starts through this walk.
 */
function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (!entry.endsWith('.test.ts')) newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

function isFresh(root, { outputs, inputs }) {
  const built = outputs.map((file) => join(root, file))
  if (!built.every((file) => existsSync(file))) return false
  const oldestOutput = Math.min(...built.map((file) => statSync(file).mtimeMs))
  return inputs.every((input) => newestMtime(join(root, input)) <= oldestOutput)
}

export function buildIsFresh(root = projectRoot) {
  return isFresh(root, APP)
}

export function cliBuildIsFresh(root = projectRoot) {
  return isFresh(root, CLI)
}

/** Runs `build` holding out/.build.lock; a process finding it held waits for the holder. */
function withBuildLock(root, stillNeeded, build) {
  const lock = join(root, 'out', '.build.lock')
  mkdirSync(dirname(lock), { recursive: true })
  const deadline = Date.now() + 10 * 60_000
  for (;;) {
    let fd
    try {
      fd = openSync(lock, 'wx')
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      if (holderIsGone(lock) || Date.now() > deadline) rmSync(lock, { force: true })
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
      continue
    }
    try {
      writeSync(fd, String(process.pid))
      closeSync(fd)
      // Built by the process we waited for: nothing left to do.
      if (stillNeeded()) build()
    } finally {
      rmSync(lock, { force: true })
    }
    return
  }
}

function holderIsGone(lock) {
  let pid
  try {
    pid = Number(readFileSync(lock, 'utf8'))
  } catch {
    return false // just created, pid not written yet; or already gone (the next try sees)
  }
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return error.code === 'ESRCH'
  }
}

export function ensureBuild(root = projectRoot) {
  if (buildIsFresh(root)) return
  withBuildLock(
    root,
    () => !buildIsFresh(root),
    () => {
      console.log('rewind-studio: building the app (electron-vite build)…')
      const result = spawnBuild(
        process.execPath,
        [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
        { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }
      )
      if (result.status !== 0) throw new Error('The build failed; run `npm run build` to see why.')
    }
  )
}

export function ensureCliBuild(root = projectRoot) {
  if (cliBuildIsFresh(root)) return
  withBuildLock(
    root,
    () => !cliBuildIsFresh(root),
    () => {
      // A child process: the build's imports (esbuild) stay out of the command's own process.
      const result = spawnBuild(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { buildCli } from ${JSON.stringify(join(root, 'scripts/build-cli.mjs'))}; await buildCli(${JSON.stringify(root)})`
        ],
        { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }
      )
      if (result.status !== 0) {
        throw new Error('Building the CLI failed; run `npm run build` to see why.')
      }
    }
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureBuild()
  ensureCliBuild()
}
