import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const corePatterns = [
  {
    group: ['electron', 'electron/*'],
    message: 'The core and the contract import nothing from electron.'
  },
  {
    group: ['**/main/**', '**/web/**', '**/cli/**', '**/renderer/**'],
    message: 'The core does not depend on its hosts.'
  }
]

// A child must never inherit the API key: children are started by src/core/os/child-env.ts only.
const childProcessBan = ['node:child_process', 'child_process'].map((name) => ({
  name,
  message:
    'Start children from src/core/os/child-env.ts (commands: core/os/command-runner.ts): it scrubs secrets from their environment.'
}))

// Session files, and what lies beside them (sub-agent transcripts, locks, the data home's small
// files), are opened through src/core/os/read-regular-file.ts only: a FIFO where a file is
// expected is refused there, never waited on (a blocked open freezes the host for good).
const regularFilesOnly = (opens) => [
  {
    name: 'node:fs',
    importNames: ['readFileSync', 'readFile', 'createReadStream', 'promises', ...opens],
    message:
      'Open session files through src/core/os/read-regular-file.ts (openRegularFile, readRegularText): it never waits on a FIFO.'
  },
  {
    name: 'node:fs/promises',
    message: 'Open session files through src/core/os/read-regular-file.ts.'
  }
]
const sessionReaders = [
  'src/core/session/**/*.ts',
  'src/core/sources/**/*.ts',
  'src/core/studio/**/*.ts',
  'src/core/views/**/*.ts',
  'src/core/settings.ts'
]

// Raw ipcMain / ipcRenderer bypass sender checks and validation: only src/main/ipc.ts registers
// handlers, only the preload touches ipcRenderer. importNames also refuses
// `import * as electron from 'electron'` (electron.ipcMain), as GitHub Desktop's lint does.
const ipcBan = (allowed) => ({
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'].filter((name) => name !== allowed),
  message:
    'Register handlers through src/main/ipc.ts; only the preload touches ipcRenderer (src/preload/index.ts).'
})

// The core's layers (docs/architecture.md "Layers"): each names the layers right below it that
// it builds on, and may import those and, through them, everything under them; nothing else.
// So layers that do not reach each other (agent and rewind, views and merge, export and share)
// stay apart, and src/shared (the contract) is below them all.
const buildsOn = {
  os: [],
  session: ['os'],
  sources: ['session'],
  files: ['sources'],
  agent: ['files'],
  rewind: ['files'],
  merge: ['agent', 'rewind'],
  views: ['agent', 'rewind'],
  export: ['views'],
  share: ['agent', 'rewind'],
  // One session at work in one workspace (session, history, agent, rewinds, merges): what the
  // chat, a parallel run and the studio are each built on.
  workspace: ['merge', 'share'],
  // Parallel runs (core/parallel) run a WorkspaceSession each, so the studio can start them.
  parallel: ['workspace', 'export'],
  studio: ['parallel']
}
const reachable = (layer) =>
  new Set(buildsOn[layer].flatMap((below) => [below, ...reachable(below)]))
// What each layer may not import: every other layer it does not build on.
const coreLayers = Object.fromEntries(
  Object.keys(buildsOn).map((layer) => {
    const below = reachable(layer)
    return [layer, Object.keys(buildsOn).filter((other) => other !== layer && !below.has(other))]
  })
)
// core/settings.ts sits with os: it imports only os and the contract.
const layerFiles = (layer) =>
  layer === 'os' ? ['src/core/os/**/*.ts', 'src/core/settings.ts'] : [`src/core/${layer}/**/*.ts`]
const layerBan = (layer) =>
  coreLayers[layer].length === 0
    ? []
    : [
        {
          regex: `^(\\.\\./)+(${coreLayers[layer].join('|')})(/|$)`,
          message: `Layer order (docs/architecture.md "Layers"): core/${layer} does not import core/{${coreLayers[layer].join(',')}}.`
        }
      ]
// The contract is below every layer: src/shared imports nothing of the core.
const sharedBan = {
  group: ['**/core/**'],
  message: 'src/shared is the contract under every layer: it imports nothing from src/core.'
}

// One no-restricted-imports per file (a later block replaces an earlier one's options for the
// files they share), so each block repeats the common bans: electron, the hosts, child_process,
// and for the session readers the FIFO-safe opens.
function coreLayerBlocks() {
  const rule = (patterns, paths) => ({
    'no-restricted-imports': ['error', paths.length > 0 ? { patterns, paths } : { patterns }]
  })
  const tests = (globs) => globs.map((glob) => glob.replace(/\.ts$/, '.test.ts'))
  const isReader = (glob) => sessionReaders.some((reader) => reader === glob)
  const blocks = [
    {
      files: ['src/shared/**/*.ts'],
      ignores: ['src/**/*.test.ts'],
      rules: rule([...corePatterns, sharedBan], childProcessBan)
    },
    { files: ['src/shared/**/*.test.ts'], rules: rule([...corePatterns, sharedBan], []) }
  ]
  for (const layer of Object.keys(coreLayers)) {
    const patterns = [...corePatterns, ...layerBan(layer)]
    for (const glob of layerFiles(layer)) {
      const reads = isReader(glob) ? regularFilesOnly(['openSync']) : []
      blocks.push(
        {
          files: [glob],
          ignores: ['src/**/*.test.ts'],
          rules: rule(patterns, [...childProcessBan, ...reads])
        },
        // Tests start children of their own (a crashing writer, git) with the environment they
        // choose, and may read a module's result through a layer above it (a fork read back as
        // the agent's context): nothing shipped depends on a test.
        { files: tests([glob]), rules: rule(corePatterns, []) }
      )
    }
  }
  blocks.push(
    {
      // The log and its lock are created and appended to here (O_EXCL: no FIFO is ever opened).
      files: ['src/core/session/store.ts', 'src/core/session/lock.ts'],
      rules: rule(
        [...corePatterns, ...layerBan('session')],
        [...childProcessBan, ...regularFilesOnly([])]
      )
    },
    {
      // The one place children are started, with the environment it scrubs.
      files: ['src/core/os/child-env.ts'],
      rules: rule([...corePatterns, ...layerBan('os')], [])
    }
  )
  return blocks
}

// A module has one job: past 600 lines of code (blank lines and comments not counted) it is
// split along its seams. The files over the cap today are listed with their size: each may not
// grow, and leaves the list once split (test/lint/file-cap.test.ts fails on an entry it no
// longer needs). The list only shrinks: a new file over the cap is split, not listed.
const MAX_CODE_LINES = 600
const maxLines = (max) => ['error', { max, skipBlankLines: true, skipComments: true }]
export const overTheCap = {
  'test/security/session-fuzz.test.ts': 651
}

// `import * as z from 'zod'`, never `import { z }`: through the namespace the bundlers keep only
// the parts of zod we call. `{ z }` is an object holding all of zod, its 50 locales and its JSON
// Schema reader included: 740 kB that every command compiled at start-up, against 210 kB.
const zodAsNamespace = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
  message: "Import zod as `import * as z from 'zod'`: the bundle then keeps only what we use."
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'demo/**',
      '.bench-tmp/**'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', zodAsNamespace]
    }
  },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    rules: { 'max-lines': maxLines(MAX_CODE_LINES) }
  },
  ...Object.entries(overTheCap).map(([file, lines]) => ({
    files: [file],
    rules: { 'max-lines': maxLines(lines) }
  })),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } }
  },
  {
    // The renderer reaches the main process only through its bridge (src/renderer/src/bridge).
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', 'electron/*'],
              message: 'The renderer talks to the bridge, never to electron.'
            },
            {
              group: ['node:*'],
              message: 'The renderer runs in a browser sandbox: no Node modules.'
            },
            {
              group: ['**/core/**', '**/main/**', '**/web/**', '**/cli/**'],
              message: 'The renderer sees only src/shared and the bridge.'
            }
          ]
        }
      ]
    }
  },
  ...coreLayerBlocks(),
  {
    // An expected failure of the core carries its contract code (dispatch answers it, the CLI
    // prints it, the page acts on it): a CodedError, never a bare Error subclass.
    files: ['src/core/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        zodAsNamespace,
        {
          selector:
            ':matches(ClassDeclaration, ClassExpression)[superClass.name=/^(Error|TypeError|RangeError)$/]',
          message:
            'Extend CodedError (src/shared/coded-error.ts) with the contract code of this failure.'
        }
      ]
    }
  },
  {
    files: ['src/main/**/*.ts', 'src/web/**/*.ts', 'src/cli/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [...childProcessBan, ipcBan()] }] }
  },
  {
    files: ['src/main/**/*.test.ts', 'src/web/**/*.test.ts', 'src/cli/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ipcBan()] }] }
  },
  {
    files: ['src/main/ipc.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...childProcessBan, ipcBan('ipcMain')] }]
    }
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ipcBan('ipcRenderer')] }] }
  }
)
