#!/usr/bin/env node
// The rewind-studio command. It runs the CLI built to JavaScript (out/cli, scripts/build-cli.mjs):
// no compiler at start-up. Right after `npm install`, or when a source is newer than the build,
// it builds it first (scripts/ensure-build.mjs).
import { ensureCliBuild } from '../scripts/ensure-build.mjs'

ensureCliBuild()
const { main } = await import('../out/cli/index.js')
process.exitCode = await main(process.argv.slice(2))
