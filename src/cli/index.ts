// The rewind-studio command line: one module per command under ./commands, loaded on demand so
// `--help` stays instant. Each command module exports `run(args): Promise<exitCode>`.
import { takeEnvSecrets } from '../core/os/env-secrets'

interface Command {
  usage: string
  summary: string
  load: () => Promise<{ run: (args: string[]) => Promise<number> }>
}

const commands: Record<string, Command> = {
  inspect: {
    usage: 'inspect FILE [--json]',
    summary:
      'print a session as a tree (ours, Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode), its checkpoints and problems',
    load: () => import('./commands/inspect')
  },
  continue: {
    usage: 'continue FILE [--at N|ID] [--cwd DIR] [--json]',
    summary: "continue another tool's session in Rewind Studio: a new session up to a node",
    load: () => import('./commands/continue')
  },
  chat: {
    usage: 'chat [--cwd DIR] [--model M] [--permission-mode MODE] [--continue | --resume ID]',
    summary:
      'talk to the agent in the terminal; /rewind, /undo, /redo, /tree, /fork, /label, /summarize-from, /compact, /exit',
    load: () => import('./commands/chat')
  },
  rewind: {
    usage: 'rewind FILE --to N [--mode M] [--dry-run] [--diff] [--json] | --undo | --redo',
    summary:
      "rewind a session to before its Nth prompt (files and/or conversation); undo, redo; a Claude Code session's files from its backups",
    load: () => import('./commands/rewind')
  },
  merge: {
    usage:
      'merge FILE --from N|ID [--into N|ID] [--conversation] [--files [--turn]] [--strategy ours|theirs] [--dry-run] [--json]',
    summary:
      "bring another branch's conclusions (a summary, an exploration's report) and/or its files (a three-way merge) into this one",
    load: () => import('./commands/merge')
  },
  summarize: {
    usage: 'summarize FILE --from N | --up-to N [--instructions TEXT] [--model M]',
    summary:
      'summarize from a prompt on, or everything before it, with the model (records appended)',
    load: () => import('./commands/summarize')
  },
  fork: {
    usage: 'fork FILE [--at N|ID] [--restore [--dry-run]] [--json]',
    summary: 'write a new session holding the path to one node of FILE; prints its file',
    load: () => import('./commands/fork')
  },
  parallel: {
    usage:
      'parallel FILE --at N|ID --prompt TEXT [--prompt TEXT ...] [--runs K] [--check CMD] [--model M] [--json]',
    summary: 'run several attempts from one node at once, each in its own workspace, as branches',
    load: () => import('./commands/parallel')
  },
  adopt: {
    usage: 'adopt FILE --run ID [--dry-run] [--json]',
    summary: "bring a parallel run's files and conversation in (undo with rewind --undo)",
    load: () => import('./commands/adopt')
  },
  runs: {
    usage: 'runs FILE [--json] [--stop ID] [--discard ID]',
    summary: 'the parallel runs of a session as a compare table; stop or discard one',
    load: () => import('./commands/runs')
  },
  export: {
    usage: 'export FILE [--branch N|ID | --all] --format md|html|json [-o OUT]',
    summary: 'a branch as Markdown, the whole tree as one offline HTML page, or the tree as JSON',
    load: () => import('./commands/export')
  },
  label: {
    usage: 'label FILE N|ID TEXT | --clear',
    summary: 'label a node of a session (or remove its label)',
    load: () => import('./commands/label')
  },
  diff: {
    usage: 'diff FILE --from A --to B|current [--cwd DIR] [--json]',
    summary: 'compare two nodes of a session (or one and the current files): files, conversations',
    load: () => import('./commands/diff')
  },
  du: {
    usage: 'du [--cwd DIR] [--json]',
    summary: 'show the backup storage of file history, per workspace and session',
    load: () => import('./commands/du')
  },
  gc: {
    usage: 'gc [--cwd DIR] [--max-gb N] [--max-age-days N] [--dry-run]',
    summary: 'prune file-history backups now (size cap, age; never what recent checkpoints need)',
    load: () => import('./commands/gc')
  },
  sessions: {
    usage: 'sessions [--cwd DIR] [--all] [--json]',
    summary:
      "list a workspace's sessions from every tool (ours, Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode), or every project",
    load: () => import('./commands/sessions')
  },
  share: {
    usage: 'share push FILE [--remote NAME] [--branch N|ID | --all] [--dry-run] | list | pull ID',
    summary:
      "share a session tree through the workspace's git remote; list and pull the shared ones",
    load: () => import('./commands/share')
  },
  serve: {
    usage: 'serve [--cwd DIR] [--port N]',
    summary: 'serve the app in your browser (no Electron) for workspace DIR, on its latest session',
    load: () => import('./commands/serve')
  }
}

export function helpText(): string {
  const lines = Object.values(commands).flatMap((c) => [`  ${c.usage}`, `      ${c.summary}`])
  return [
    'Usage: rewind-studio <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Data lives under $REWIND_STUDIO_HOME (default ~/.rewind-studio).',
    'Run `rewind-studio <command> --help` for a command’s options.'
  ].join('\n')
}

export async function main(argv: string[]): Promise<number> {
  // Before any command runs anything: the key leaves this process's environment (env-secrets.ts).
  takeEnvSecrets()
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(helpText())
    return 0
  }
  const command = commands[name]
  if (command === undefined) {
    console.error(`rewind-studio: unknown command "${name}".\n\n${helpText()}`)
    return 2
  }
  const module = await command.load()
  return module.run(rest)
}
