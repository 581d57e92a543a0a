// `rewind-studio merge SESSION_FILE --from N|ID [--into N|ID] --conversation | --files`: bring
// another branch's conclusions and/or code into the branch the conversation is on (issue 31),
// as the app's "Bring into this branch…" does (core/merge). --files is a three-way merge per
// file; --dry-run --json prints the plan; conflicts without --strategy change nothing (exit 1,
// each named). The merge is one action of the timeline: `rewind FILE --undo` reverses it.
import { conversationToBring } from '../../core/merge/conversation'
import { type MergeAsk, type PreparedMerge, prepareMerge, runMerge } from '../../core/merge/merge'
import type { RestoreSpace } from '../../core/rewind/workspace-files'
import { MergeError, partingPoint } from '../../core/merge/merge-plan'
import { RewindEngine } from '../../core/rewind/rewind-engine'
import { rewindStudioHome } from '../../core/session/paths'
import type { SessionStore } from '../../core/session/store'
import { indexTurns, buildSessionGraph } from '../../core/views/session-graph'
import { nodeEnd, resolveNode } from '../../core/views/node-refs'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { maskSecrets, maskSecretsIn } from '../../shared/mask-secrets'
import type { MergePreview } from '../../shared/merge-views'
import { UsageError, optionValue } from '../args'
import { type SessionCommand, commandModels, runOnSession, startFileCommand } from '../cli-support'
import { onePath, say, sayError } from '../format'
import { sessionSpace } from '../session-space'

const USAGE = `Usage: rewind-studio merge SESSION_FILE --from N|ID [--into N|ID] [--conversation]
                           [--instructions TEXT] [--model M] [--files] [--turn]
                           [--strategy ours|theirs] [--cwd DIR] [--dry-run] [--json]

Brings what another branch learned, and what it built, into the branch the conversation is on.
--from names a node of another branch (a turn number as inspect and /tree list them, or an id).
  --conversation  appends its conclusions as a record the model sees from then on: the report
                  of an agent's exploration, else a summary of that branch from where the two
                  branches part (made by the model: --model, the settings, ANTHROPIC_MODEL; the
                  demo script without a key), focused by --instructions
  --files         merges its files three ways (git's merge): base = the files where the
                  branches part, ours = the workspace now, theirs = that node's files
  --turn          with --files: only the changes of that one turn (a cherry-pick)
--into names the node the merge goes into: by default the one the conversation is on. Another
node of this session: the merge lands on its branch, which becomes the branch you are on: the
conversation and the files move there first (as the app's Switch to this branch, or Continue
from here for a node with turns after it: one step of the timeline), then the merge is made
there (a second step). A dry run into another node is refused (its plan needs that move). Conflicts (both sides changed the
same lines, a file deleted on one side and changed on the other, a binary file both changed)
need --strategy: ours / theirs takes that side where the two disagree (a text file keeps the
other side's clean changes, as git's -X ours / -X theirs). Without it nothing is changed, the
conflicts are listed and the exit code is 1. --dry-run prints the plan and changes nothing;
--json prints it as JSON. The merge is one step of the timeline: rewind SESSION_FILE --undo
reverses it.`

interface Options {
  file: string
  from: string
  into: string | null
  conversation: boolean
  instructions: string | undefined
  model: string | undefined
  files: boolean
  turn: boolean
  strategy: 'ours' | 'theirs' | undefined
  cwd: string | null
  dryRun: boolean
  json: boolean
}

function parse(args: string[]): Options {
  const options: Options = {
    file: '',
    from: '',
    into: null,
    conversation: false,
    instructions: undefined,
    model: undefined,
    files: false,
    turn: false,
    strategy: undefined,
    cwd: null,
    dryRun: false,
    json: false
  }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
    if (arg === '--from') options.from = value()
    else if (arg === '--into') options.into = value()
    else if (arg === '--conversation') options.conversation = true
    else if (arg === '--instructions') options.instructions = value()
    else if (arg === '--model') options.model = value()
    else if (arg === '--files') options.files = true
    else if (arg === '--turn') options.turn = true
    else if (arg === '--strategy') {
      const raw = value()
      if (raw !== 'ours' && raw !== 'theirs') {
        throw new UsageError(`--strategy must be ours or theirs, not "${raw}"`)
      }
      options.strategy = raw
    } else if (arg === '--cwd') options.cwd = value()
    else if (arg === '--dry-run') options.dryRun = true
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one SESSION_FILE')
  options.file = files[0] ?? ''
  if (options.from === '') throw new UsageError('give --from N|ID: the node to bring in')
  if (!options.conversation && !options.files) {
    throw new UsageError('give --conversation, --files or both: what to bring in')
  }
  if (options.turn && !options.files) throw new UsageError('--turn goes with --files')
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('merge', args, USAGE, parse)
  if (typeof options === 'number') return options
  const readOnly = options.dryRun
  return runOnSession(options.file, { readOnly }, async ({ store, signal, stopOnInterrupt }) => {
    const home = rewindStudioHome()
    const space = sessionSpace(home, options.file, store, options.cwd)
    const engine = new RewindEngine({ home, store, space })
    for (const notice of await engine.recover()) sayError(`note: ${notice}`)
    const tree = store.tree()
    const index = indexTurns(tree)
    const graph = buildSessionGraph(tree, store.sessionId, index)
    const fromNode = resolveNode(tree, graph, index, options.from)
    if (options.turn && fromNode.kind !== 'turn') {
      throw new UsageError(`--turn needs a turn, and ${options.from} is a ${fromNode.kind} node`)
    }
    const fromUuid = nodeEnd(tree, index, fromNode)
    const mergeHere = () =>
      mergeOnLeaf(
        options,
        { store, engine, space, signal, stopOnInterrupt },
        {
          fromUuid,
          ...(options.turn ? { turnUuid: fromNode.id } : {}),
          files: options.files
        }
      )
    if (options.into !== null) {
      const into = resolveNode(tree, graph, index, options.into)
      const end = nodeEnd(tree, index, into)
      if (end !== tree.leafUuid && into.id !== index.owner.get(tree.leafUuid ?? '')) {
        if (options.dryRun) {
          throw new UsageError(
            `--into ${options.into} is not the node the conversation is on, and a dry run changes nothing: the plan is made once the merge has moved there. Switch to it first (rewind-studio rewind, or the app), then run the dry run. Nothing was changed.`
          )
        }
        if (partingPoint(tree, fromUuid, end) === fromUuid) {
          throw new MergeError(
            'conflict',
            `${options.from} is on the branch of --into ${options.into} already: nothing to bring in. Nothing was changed.`
          )
        }
        // Onto that branch first, files and conversation, as the app's "Switch to this branch"
        // (or, for a node with turns after it, "Continue from here"): one step Undo reverses.
        const moved = await engine.apply(
          end === into.branchLeafUuid
            ? await engine.planSwitch(end)
            : await engine.planContinue(end)
        )
        let code = 1
        try {
          code = await mergeHere()
        } finally {
          // A merge that did not happen leaves the conversation and the files where they were.
          if (code !== 0) {
            await engine.undo()
            sayError(`note: moved back from the branch of ${options.into}.`)
          }
        }
        say(
          `Moved to the branch of ${options.into} first (${moved.restored.length + moved.deleted.length + moved.recreated.length} file(s) restored): the second rewind --undo takes you back.`
        )
        return code
      }
    }
    return mergeHere()
  })
}

/** The merge made on the branch the conversation is on: plan, conflicts, conversation, apply. */
async function mergeOnLeaf(
  options: Options,
  at: SessionCommand & { engine: RewindEngine; space: RestoreSpace },
  ask: MergeAsk
): Promise<number> {
  const { store, engine, space, signal, stopOnInterrupt } = at
  const ws = { tree: () => store.tree(), leafUuid: () => store.leafUuid, engine, space }
  const prepared = await prepareMerge(ws, ask)
  if (options.dryRun) {
    printPlan(options, prepared)
    return 0
  }
  const conflicts = prepared.preview.files.filter((f) => f.status === 'conflict')
  if (conflicts.length > 0 && options.strategy === undefined) {
    if (options.json) printPlan(options, prepared)
    for (const file of conflicts) {
      sayError(`conflict: ${onePath(file.path)} (${conflictWords(file.conflict)})`)
    }
    sayError(
      `merge: ${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}: give --strategy ours|theirs, or resolve them in the app. Nothing was changed.`
    )
    return 1
  }
  // Its conclusions on this branch already: not brought in twice; with --files the files still are.
  const repeated = options.conversation && prepared.preview.conversation.source === 'here'
  if (repeated && !options.files) {
    sayError(`merge: ${CONCLUSIONS_HERE} Nothing was changed.`)
    return 1
  }
  let conversation
  if (options.conversation && !repeated) {
    conversation = await bringConversation(options, store, prepared, signal)
  }
  stopOnInterrupt()
  const done = await runMerge(ws, prepared, {
    ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
    ...(conversation === undefined ? {} : { conversation })
  })
  if (options.json) {
    console.log(
      escapeControlCharsInJson(
        JSON.stringify({ merge: done.uuid, ...maskSecretsIn(prepared.preview) })
      )
    )
  } else {
    printFiles(prepared)
    if (repeated) say(`Conversation: ${CONCLUSIONS_HERE}`)
    if (conversation !== undefined) {
      say(
        conversation.source === 'report'
          ? 'The exploration’s report, brought in:'
          : 'The summary brought in:'
      )
      for (const line of maskSecrets(conversation.summary).split('\n')) say(`  │ ${line}`)
    }
    say(
      `Brought in (${done.uuid}): ${prepared.preview.files.length} file(s), ${done.paths.length} written. Undo with: rewind-studio rewind ${options.file} --undo`
    )
  }
  return 0
}

async function bringConversation(
  options: Options,
  store: SessionStore,
  prepared: PreparedMerge,
  signal: AbortSignal
) {
  const report = prepared.preview.conversation.report
  if (report !== null) return { summary: report, source: 'report' as const }
  const models = commandModels(options.model)
  const model = await models.client()
  return conversationToBring(
    {
      tree: store.tree(),
      model,
      cwd: store.cwd,
      window: models.settings().contextWindow,
      signal
    },
    prepared.ask.fromUuid,
    store.leafUuid,
    options.instructions
  )
}

const CONCLUSIONS_HERE =
  'this branch holds its conclusions already (its report, or an earlier merge of it): not brought in again.'

const CONVERSATION_PLANS: Record<MergePreview['conversation']['source'], string> = {
  report: 'the exploration’s report would be brought in.',
  summary: 'a summary of that branch would be made and brought in.',
  here: CONCLUSIONS_HERE
}

const CONFLICT_WORDS: Record<string, string> = {
  content: 'both changed the same lines',
  'added-both': 'both added it, differently',
  'deleted-here': 'deleted here, changed there',
  'deleted-there': 'changed here, deleted there',
  binary: 'a binary file both changed',
  'too-large': 'too large to merge line by line',
  'no-git': 'both changed it, and git is not installed to merge it'
}

function conflictWords(kind: string | undefined): string {
  return CONFLICT_WORDS[kind ?? ''] ?? 'conflict'
}

function printPlan(options: Options, prepared: PreparedMerge): void {
  const preview = prepared.preview
  if (options.json) {
    // The plan, without the sides' contents (the app's dialog shows those).
    const files = preview.files.map(({ ours: _o, theirs: _t, marked: _m, ...file }) => file)
    console.log(escapeControlCharsInJson(JSON.stringify(maskSecretsIn({ ...preview, files }))))
    return
  }
  printFiles(prepared)
  if (options.conversation) {
    say(`Conversation: ${CONVERSATION_PLANS[preview.conversation.source]}`)
  }
  say('Dry run: nothing was changed.')
}

function printFiles(prepared: PreparedMerge): void {
  const lines = prepared.preview.files.map((f) => {
    const similar = f.similarity === undefined ? '' : `, ${f.similarity}% similar`
    const name =
      f.renamedHere !== undefined
        ? `${onePath(f.path)} (renamed here from ${onePath(f.renamedHere)}${similar})`
        : f.renamedFrom === undefined
          ? onePath(f.path)
          : `${onePath(f.renamedFrom)} → ${onePath(f.path)} (${similar.slice(2)})`
    return f.status === 'clean'
      ? `  ⎿ ${f.change} ${name}`
      : `  ! ${f.change} ${name}: conflict (${conflictWords(f.conflict)}${f.hunks === undefined ? '' : `, ${f.hunks} hunk${f.hunks === 1 ? '' : 's'}`})`
  })
  for (const { path, reason } of prepared.preview.unmergeable) {
    lines.push(`  ? ${onePath(path)} left alone: ${reason}`)
  }
  if (lines.length > 0) say(lines.join('\n'))
}
