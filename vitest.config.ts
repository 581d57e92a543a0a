import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
