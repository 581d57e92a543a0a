// Fetches Electron's binary from the project's own install step, because package.json denies
// electron's postinstall (it fails the whole `npm install` where GitHub is unreachable).
// Where the download fails we print one line and carry on: `npm start` then serves the web UI.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

function electronDir() {
  try {
    return dirname(require.resolve('electron/package.json'))
  } catch {
    return null
  }
}

const dir = electronDir()
if (dir === null) process.exit(0)
if (existsSync(join(dir, 'path.txt'))) process.exit(0)

const result = spawnSync(process.execPath, [join(dir, 'install.js')], {
  stdio: 'ignore',
  timeout: 120_000
})
if (result.status === 0 && existsSync(join(dir, 'path.txt'))) {
  console.log('rewind-studio: Electron binary installed.')
} else {
  console.log(
    'rewind-studio: Electron binary could not be downloaded; `npm start` will serve the app in your browser instead.'
  )
}
