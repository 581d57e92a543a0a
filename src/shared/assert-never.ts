// Closes a switch over a discriminated union: the compiler refuses a case left out (x cannot be
// `never` then), and a value from outside the types (a record from a newer version) fails here
// with what it was, not further on with something vaguer.
export function assertNever(x: never, what: string): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(x)}`)
}
