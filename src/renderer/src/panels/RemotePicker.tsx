// Which of the workspace's git remotes a share goes to or is read from (Share… and Shared
// sessions), shown only when there is more than one to choose from.
export function RemotePicker({
  remotes,
  remote,
  onChange
}: {
  remotes: readonly string[]
  remote: string
  onChange: (remote: string) => void
}) {
  if (remotes.length < 2) return null
  return (
    <label className="field">
      <span>Remote</span>
      <select value={remote} onChange={(event) => onChange(event.target.value)}>
        {remotes.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  )
}
