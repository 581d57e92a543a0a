// The one limit on a permission prompt's detail: the contract checks it (shared/views.ts) and the
// agent refuses a longer call unasked. A module of its own so the agent, which every chat loads,
// does not load the renderer's view schemas for one number (bench/summarize-process.ts).

/** The longest text a permission prompt shows whole; the agent refuses a longer call unasked. */
export const MAX_PERMISSION_DETAIL_CHARS = 1_000_000
