import { describe, expect, it } from 'vitest'
import { isGitFolderName } from './git-folder-name'

describe('isGitFolderName', () => {
  it('knows the names that are .git on macOS, Windows or HFS+', () => {
    const aliases = ['.git', '.GIT', '.Git', '.git.', '.git ', '.git. .', 'GIT~1', 'git~12']
    const more = ['.git::$INDEX_ALLOCATION', '.g\u200cit', '\ufeff.git']
    for (const name of [...aliases, ...more]) expect(isGitFolderName(name), name).toBe(true)
  })

  it('leaves other names alone', () => {
    for (const name of ['.gitignore', '.github', 'git', '.gi', 'x.git', '.git2', 'GIT~']) {
      expect(isGitFolderName(name), name).toBe(false)
    }
  })
})
