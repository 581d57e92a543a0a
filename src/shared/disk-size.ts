// A size on disk as a person reads it (`du -h`'s way, in powers of 1000): what `du`, `gc` and the
// app's Runs table print.
export function diskSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}
