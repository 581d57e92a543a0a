// A count with its noun, as every message and panel writes one: "1 file", "3 files", "12,000
// sessions". Nouns whose plural is not the singular plus "s" give it.
import { groupedNumber } from './grouped-number'

export function counted(n: number, word: string, words = `${word}s`): string {
  return `${groupedNumber(n)} ${n === 1 ? word : words}`
}
