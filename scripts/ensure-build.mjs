// Builds the app (electron-vite: main, preload, renderer into out/) when out/ is missing or older
// than any source file, so `npm start`, `cli serve` and the e2e suite never run a stale build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)))

const outputs = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']
const inputs = ['src', 'electron.vite.config.ts', 'package.json']

function newestMtime(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

export function buildIsFresh(root = projectRoot) {
  const built = outputs.map((file) => join(root, file))
  if (!built.every((file) => existsSync(file))) return false
  const oldestOutput = Math.min(...built.map((file) => statSync(file).mtimeMs))
  return inputs.every((input) => newestMtime(join(root, input)) <= oldestOutput)
}

export function ensureBuild(root = projectRoot) {
  if (buildIsFresh(root)) return
  console.log('rewind-studio: building the app (electron-vite build)…')
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit']
    }
  )
  if (result.status !== 0) throw new Error('The build failed; run `npm run build` to see why.')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild()
