// The rewind-studio command line: one module per command under ./commands, loaded on demand so
// `--help` stays instant. Each command module exports `run(args): Promise<exitCode>`.

interface Command {
  usage: string
  summary: string
  load: () => Promise<{ run: (args: string[]) => Promise<number> }>
}

const commands: Record<string, Command> = {
  inspect: {
    usage: 'inspect FILE [--json]',
    summary:
      'print a session file as a tree (ours, Claude Code or pi), its checkpoints and problems',
    load: () => import('./commands/inspect')
  },
  chat: {
    usage: 'chat [--cwd DIR] [--model M] [--permission-mode MODE] [--continue | --resume ID]',
    summary: 'talk to the agent in the terminal; /rewind, /undo, /redo, /exit',
    load: () => import('./commands/chat')
  },
  rewind: {
    usage: 'rewind FILE --to N [--mode M] [--dry-run] [--diff] [--json] | --undo | --redo',
    summary: 'rewind a session to before its Nth prompt (files and/or conversation); undo, redo',
    load: () => import('./commands/rewind')
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
