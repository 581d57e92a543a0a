// Serves the built renderer (out/renderer). Only files inside that folder, by exact path.
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2'
}

export interface StaticFile {
  body: Buffer
  contentType: string
}

/** A URL's path with its % escapes decoded, or null when one is malformed (`/%zz`). */
export function decodeUrlPath(urlPath: string): string | null {
  try {
    return decodeURIComponent(urlPath)
  } catch {
    return null
  }
}

/** The file at `decoded` (a URL path, % escapes decoded) inside `root`, or null. */
export async function readStaticFile(root: string, decoded: string): Promise<StaticFile | null> {
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const full = normalize(join(root, relative))
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null
  try {
    const body = await readFile(full)
    return { body, contentType: contentTypes[extname(full)] ?? 'application/octet-stream' }
  } catch {
    return null
  }
}
