// Fails when a tracked file still holds a merge's conflict markers. ESLint and tsc catch them in
// code, but prettier formats them in Markdown as if they were prose, so a half-resolved README
// would pass the rest of the lint.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

// Built, not written out, so this file does not match itself.
const marker = new RegExp(`^(${'<'.repeat(7)}|${'>'.repeat(7)}) `, 'm')
const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0')
const bad = files.filter((file) => {
  if (file === '') return false
  try {
    return marker.test(readFileSync(file, 'utf8'))
  } catch {
    return false // deleted in the working tree, or not a regular file
  }
})
if (bad.length > 0) {
  console.error(`Merge conflict markers left in:\n  ${bad.join('\n  ')}`)
  process.exit(1)
}
