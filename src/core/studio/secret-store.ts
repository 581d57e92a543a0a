/** Where a host keeps the API key typed into settings (Electron: safeStorage). */
export interface SecretStore {
  get(): string | null
  /** null or '' forgets the key. Throws when the key cannot be kept safely. */
  set(key: string | null): void
  /** Shown in settings where the store is weak or missing. */
  warning: string | null
}

/** The web host and the CLI have no OS key store: a key typed in lives for this run only. */
export function memorySecrets(): SecretStore {
  let key: string | null = null
  return {
    warning:
      'A key pasted here is kept in memory for this run only (this host has no key store); set ANTHROPIC_API_KEY to keep one.',
    get: () => key,
    set(next) {
      key = next === '' ? null : next
    }
  }
}
