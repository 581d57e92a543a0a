import { defineConfig } from 'vitest/config'
import { useRunTempRoot } from './test/support/temp-root'

useRunTempRoot()

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ['test/support/build-cli.ts', 'test/support/temp-root-teardown.ts']
  }
})
