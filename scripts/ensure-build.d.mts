export const projectRoot: string
export function buildIsFresh(root?: string): boolean
export function cliBuildIsFresh(root?: string): boolean
export function ensureBuild(root?: string): void
export function ensureCliBuild(root?: string): void
