export const projectRoot: string
export function buildIsFresh(root?: string): boolean
export function ensureBuild(root?: string): void
