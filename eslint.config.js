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
  'src/core/settings.ts'
]

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
  {
    // Raw ipcMain / ipcRenderer bypass sender checks and validation: only the typed wrappers use them.
    files: ['src/**/*.ts'],
    ignores: ['src/main/ipc.ts', 'src/preload/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        zodAsNamespace,
        {
          selector: "ImportSpecifier[imported.name='ipcMain']",
          message: 'Register handlers through src/main/ipc.ts.'
        },
        {
          selector: "ImportSpecifier[imported.name='ipcRenderer']",
          message: 'Only the preload touches ipcRenderer.'
        }
      ]
    }
  },
  {
    // The core runs in the CLI, the web host and Electron alike.
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: corePatterns, paths: childProcessBan }]
    }
  },
  {
    files: sessionReaders,
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: corePatterns, paths: [...childProcessBan, ...regularFilesOnly(['openSync'])] }
      ]
    }
  },
  {
    // The log and its lock are created and appended to here (O_EXCL: no FIFO is ever opened).
    files: ['src/core/session/store.ts', 'src/core/session/lock.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: corePatterns, paths: [...childProcessBan, ...regularFilesOnly([])] }
      ]
    }
  },
  {
    // Tests start children of their own (a crashing writer, git) with the environment they choose.
    files: ['src/core/os/child-env.ts', 'src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: corePatterns }] }
  },
  {
    files: ['src/main/**/*.ts', 'src/web/**/*.ts', 'src/cli/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: childProcessBan }] }
  }
)
