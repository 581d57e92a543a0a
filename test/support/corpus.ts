// The corpus of real Claude Code and pi transcripts kept beside the repository (../shared/corpus,
// as the CI checkout has it). Tests that read it are skipped, saying so, in a clone without it.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { repoRoot } from './cli'

export const corpusDir = resolve(repoRoot, '../shared/corpus')
export const haveCorpus = existsSync(corpusDir)
if (!haveCorpus) {
  console.log(
    `Skipping the corpus tests: ${corpusDir} is absent (shared/ beside the clone holds it)`
  )
}

/** A file of the corpus, by its path inside it. */
export function corpusFile(...parts: string[]): string {
  return join(corpusDir, ...parts)
}
