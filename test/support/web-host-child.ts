// The web host alone in a child process, over the transport tests' recording handlers and a tiny
// static folder, so a test can see whether something sent to it kills the process. Prints
// "READY <port> <token>" once it listens; stops on SIGTERM. Its connection limits and timeouts
// are the host's own unless the JSON in argv[2] shortens them.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startWebHost, type WebHostOptions } from '../../src/web/server'
import { recordingHandlers } from './recording-handlers'

const staticDir = mkdtempSync(join(tmpdir(), 'rs-static-'))
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Rewind Studio</title>')
mkdirSync(join(staticDir, 'assets'))
writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)')

const limits = JSON.parse(process.argv[2] ?? '{}') as WebHostOptions['limits']
const host = await startWebHost({ handlers: recordingHandlers().handlers, staticDir, limits })
process.stdout.write(`READY ${host.port} ${host.token}\n`)
process.once('SIGTERM', () => void host.close().then(() => process.exit(0)))
