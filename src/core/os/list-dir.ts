import { promises as fs } from 'node:fs'

/** The names in `dir`, or none when the folder does not exist yet; other errors are thrown. */
export async function listDirIfPresent(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}
