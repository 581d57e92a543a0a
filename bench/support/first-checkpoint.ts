// Child process of bench/files-bash-scan.ts: takes a session's first checkpoint (the Bash baseline:
// every tracked file stat'ed, hashed and backed up) of WORKSPACE into HOME, alone in its process,
// and prints {ms, peakRssMb, startRssMb} as JSON: the time of the baseline, the process's peak
// resident memory, and what it held before the baseline began (Node and the TypeScript loader).
//   node --import tsx bench/support/first-checkpoint.ts HOME WORKSPACE
import { FileHistory } from '../../src/core/files/file-history'
import { SessionStore } from '../../src/core/session/store'

const [home, cwd] = process.argv.slice(2)
if (home === undefined || cwd === undefined) throw new Error('usage: first-checkpoint HOME CWD')
const store = SessionStore.create({ home, cwd })
const startRssMb = process.resourceUsage().maxRSS / 1024
const start = process.hrtime.bigint()
const history = await FileHistory.open({ home, cwd, sessionId: store.sessionId, log: store })
await history.prepareForCommands()
const ms = Number(process.hrtime.bigint() - start) / 1e6
const peakRssMb = process.resourceUsage().maxRSS / 1024
await history.close()
store.close()
console.log(JSON.stringify({ ms, peakRssMb, startRssMb }))
