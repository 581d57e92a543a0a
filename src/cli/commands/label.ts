// `rewind-studio label FILE N|ID TEXT… | --clear`: a bookmark on a node of a session, appended
// to its log as the app's Label does (a label record; the latest one for a node wins).
import { existsSync } from 'node:fs'
import { SessionStore } from '../../core/session/store'
import { buildSessionGraph, indexTurns } from '../../core/views/session-graph'
import { resolveNode } from '../../core/views/node-refs'
import { escapeControlCharsOneLine } from '../../shared/control-chars'
import { MAX_LABEL_CHARS, labelProblem } from '../../shared/label-limit'
import { shownOneLine } from '../../shared/shown-text'
import { say, sayError } from '../format'

const USAGE = `Usage: rewind-studio label FILE N|ID TEXT…
       rewind-studio label FILE N|ID --clear

Labels a node of the session in FILE (at most ${MAX_LABEL_CHARS} characters), or removes its label.
N is a turn number (the active path's prompts are 1, 2, 3…; other branches' turns follow, as
chat's /tree lists them); ID is a node's id or the short id inspect prints.`

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  const clear = args.includes('--clear')
  const [file, ref, ...words] = args.filter((a) => a !== '--clear')
  const text = words.join(' ')
  const option = words.find((w) => w.startsWith('--'))
  const usage =
    file === undefined || ref === undefined
      ? 'give a session FILE and a node (N or an id)'
      : option !== undefined
        ? `unknown option ${option}`
        : clear === (text.trim() !== '')
          ? 'give either the label TEXT or --clear'
          : null
  if (usage !== null || file === undefined || ref === undefined) {
    sayError(`label: ${usage}\n\n${USAGE}`)
    return 2
  }
  const problem = clear ? null : labelProblem(text)
  if (problem !== null) {
    sayError(`label: ${problem}`)
    return 1
  }
  if (!existsSync(file)) {
    sayError(`label: no session file ${file}`)
    return 1
  }
  let store: SessionStore | null = null
  try {
    store = SessionStore.open(file)
    if (store.readOnlyReason !== null) {
      throw new Error(`cannot change ${file}: ${store.readOnlyReason}. Nothing was changed.`)
    }
    const tree = store.tree()
    const index = indexTurns(tree)
    const node = resolveNode(tree, buildSessionGraph(tree, store.sessionId, index), index, ref)
    const title = escapeControlCharsOneLine(node.title)
    if (clear) {
      if (node.label === null) {
        say(`“${title}” has no label: nothing was changed.`)
        return 0
      }
      store.appendLabel({ targetUuid: node.id, label: null })
      say(`Label removed from “${title}”.`)
    } else {
      const label = text.trim()
      store.appendLabel({ targetUuid: node.id, label })
      say(`Labelled “${title}”: ${shownOneLine(label)}`)
    }
    return 0
  } catch (error) {
    sayError(`label: ${(error as Error).message}`)
    return 1
  } finally {
    store?.close()
  }
}
