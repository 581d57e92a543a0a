// A separate process for the crash test: starts a session, sends one prompt to an agent driven by
// a scripted model, and prints "EXPLORING <session file>" when the exploration's command starts,
// so the parent can kill it between checkpoint and rewind. Usage: checkpoint-child.ts HOME CWD SCRIPT PROMPT
import { Agent } from '../../src/core/agent/agent'
import { ScriptedModel } from '../../src/core/agent/model/scripted'
import { builtinTools } from '../../src/core/agent/tools'
import { RecordingGuard } from './tool-workspace'
import { SessionStore } from '../../src/core/session/store'

const [home, cwd, script, prompt] = process.argv.slice(2)
if (home === undefined || cwd === undefined || script === undefined || prompt === undefined) {
  console.error('usage: checkpoint-child.ts HOME CWD SCRIPT PROMPT')
  process.exit(2)
}
const store = SessionStore.create({ home, cwd })
const agent = new Agent({
  session: store,
  cwd,
  model: await ScriptedModel.load(script),
  tools: builtinTools(),
  permissionMode: 'bypassPermissions',
  askPermission: async () => true,
  guard: new RecordingGuard(cwd),
  onCheckpoint: async () => {},
  onEvent: (e) => {
    if (e.type === 'tool_start' && e.name === 'Bash')
      process.stdout.write(`EXPLORING ${store.file}\n`)
  },
  checkpointTools: true
})
await agent.send(prompt)
console.error('the turn ended: the parent should have killed this process first')
process.exit(1)
