// Builds the rewind-studio command (src/cli, with the core and the web host it serves) to
// JavaScript in out/cli, so no TypeScript compiler runs when a command starts: `--help` costs
// about what starting Node does (bench/cli-startup.ts). One ES module per entry; each command is
// a chunk of its own, loaded when it runs, so `--help` loads only the entry. Packages from
// node_modules stay imports (they are the app's dependencies), but for the few small ones every
// command loads (INLINED): as ES modules they are many files (zod's ~100) whose resolving and
// linking cost more than their code, bundled into the chunks a command loads ~30% faster
// (bench/files-restore.ts). The Anthropic SDK is inlined too: as its ~230 modules it cost every
// `summarize` and `chat` ~240 ms of CPU before the first request; bundled, and cut to the Messages
// resource (core/agent/model/anthropic.ts), ~20 ms (bench/summarize-process.ts). `ignore` is
// inlined too: as the CommonJS package it is, every `chat` paid Node's CommonJS export scan and
// wrapper for it, ~8 ms of CPU at start (bench/summarize-process.ts, /compact). Worker modules
// are entries of their own, built as `<name>.js`
// beside the chunks that start them (core/os/module-worker.ts).
//
// The build goes to a temp folder first and replaces out/cli whole, so a command started during
// a build never finds half of one.
import { build } from 'esbuild'
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const INLINED = new Set(['zod', 'diff', '@anthropic-ai/sdk', 'ignore'])

/** Every package the app depends on but INLINED, with its subpaths: left as imports. */
function externalPackages(root) {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(
    readFileSync(join(root, 'package.json'), 'utf8')
  )
  return Object.keys({ ...dependencies, ...devDependencies })
    .filter((name) => !INLINED.has(name))
    .flatMap((name) => [name, `${name}/*`])
}

export async function buildCli(root) {
  const out = join(root, 'out', 'cli')
  const temp = join(root, 'out', `cli.${process.pid}.tmp`)
  rmSync(temp, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: {
      index: 'src/cli/index.ts',
      'search-worker': 'src/core/agent/tools/search-worker.ts',
      'retention-worker': 'src/core/rewind/retention-worker.ts'
    },
    outdir: temp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: externalPackages(root),
    sourcemap: 'linked',
    logLevel: 'warning'
  })
  const old = join(root, 'out', `cli.${process.pid}.old`)
  if (existsSync(out)) renameSync(out, old)
  renameSync(temp, out)
  rmSync(old, { recursive: true, force: true })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCli(dirname(dirname(fileURLToPath(import.meta.url))))
}
