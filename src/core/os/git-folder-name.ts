// Whether a file name is a .git folder's on some file system git runs on. Below every layer that
// walks or guards a workspace: the workspace paths, the tools' walk, the Bash sandbox's repository
// scan (os/sandbox-repos.ts) and the ignore rules all ask it.

/** What a name needs to fold to `.git` or `GIT~N`: "git" in some case, or a character not printable ASCII. */
const MAY_NAME_GIT = /[gG][iI][tT]|[^ -~]/

/** Characters HFS+ leaves out when it compares names, so `.g\u200cit` is `.git` there (git's is_hfs_dotgit). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g

/**
 * Whether a file name is, on some file system git runs on, the name of a .git folder: `.git` in
 * any case (macOS's and Windows' file systems ignore case), with the trailing dots and spaces
 * Windows drops (`.git.`, `.git `), an NTFS stream suffix (`.git::$INDEX_ALLOCATION`), the
 * characters HFS+ ignores, or as Windows' short name `GIT~1`. Refused on Linux too: such a name
 * costs a Linux user nothing, and the workspace may be a share or a checkout a Mac also uses.
 */
export function isGitFolderName(name: string): boolean {
  // Most names: ASCII without "git" in any case folds to neither form below.
  if (!MAY_NAME_GIT.test(name)) return false
  const folded = (name.replace(HFS_IGNORED, '').split(':')[0] ?? '')
    .replace(/[. ]+$/, '')
    .toLowerCase()
  return folded === '.git' || /^git~\d+$/.test(folded)
}
