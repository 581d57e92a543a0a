// The session log's format version, in a module of its own: the foreign readers stamp it on the
// headers they map, and importing it from records.ts would load zod (its schemas) into every
// process that only reads a session (`inspect`: ~60 ms of a start, bench/cli-startup.ts).
export const SESSION_FORMAT_VERSION = 1
