// A whole number written as en-US writes it (1,234,567), without Intl: a process's first
// toLocaleString loads ICU's locale data, ~25 ms of CPU, a tenth of a `chat` that prints one
// context line (bench/summarize-process.ts). Anything but a safe integer (or -0)
// goes to toLocaleString.
export function groupedNumber(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US')
  const digits = String(Math.abs(n))
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1)
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`
  return n < 0 ? `-${out}` : out
}
