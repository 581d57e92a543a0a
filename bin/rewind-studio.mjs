#!/usr/bin/env node
// The rewind-studio command. It runs the TypeScript sources through tsx, so the CLI works right
// after `npm install`, with no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/index.ts')
process.exitCode = await main(process.argv.slice(2))
