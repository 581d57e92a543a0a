// `npm start`: build if needed, then open the desktop window. Where no Electron binary is
// installed (or no display exists) say so in one line and serve the same UI in the browser.
// Without an API key (and without --cwd) it opens the demo workspace on the scripted model.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { ensureBuild, ensureCliBuild, projectRoot } from './ensure-build.mjs'

const args = process.argv.slice(2)
ensureBuild()

function electronBinary() {
  try {
    // electron's index.js returns the binary's path, and throws when it was never downloaded.
    return createRequire(import.meta.url)('electron')
  } catch {
    return null
  }
}

const binary = electronBinary()
const hasDisplay =
  process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
const demo = !process.env.ANTHROPIC_API_KEY && !args.includes('--cwd') ? ['--demo'] : []

if (binary !== null && hasDisplay) {
  const child = spawn(binary, [projectRoot, ...demo, ...args], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  console.log(
    binary === null
      ? 'rewind-studio: no Electron binary is installed here, so the app is served in your browser instead.'
      : 'rewind-studio: no display is available for a window, so the app is served in your browser instead.'
  )
  ensureCliBuild()
  const { main } = await import('../out/cli/index.js')
  process.exitCode = await main(['serve', ...demo, ...args])
}
