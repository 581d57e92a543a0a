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

export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const decoded = decodeURIComponent(urlPath)
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
