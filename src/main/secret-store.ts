// The API key, kept with Electron's safeStorage (OS keychain) in a file under the data folder.
// It is read by the main process only and never sent to the renderer.
import { safeStorage } from 'electron'
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ensurePrivateDir, writePrivateFileSync } from '../core/os/private-files'
import type { SecretStore } from '../core/studio/secret-store'

export function safeStorageSecrets(home: string): SecretStore {
  const file = join(home, 'api-key.enc')
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'
  const warning = !safeStorage.isEncryptionAvailable()
    ? 'No OS key store is available: the API key cannot be saved; set ANTHROPIC_API_KEY instead.'
    : backend === 'basic_text'
      ? 'Your desktop has no key ring (backend basic_text): the saved API key is only obfuscated.'
      : null
  return {
    warning,
    get() {
      if (!existsSync(file) || !safeStorage.isEncryptionAvailable()) return null
      return safeStorage.decryptString(readFileSync(file))
    },
    set(key) {
      if (key === null || key === '') {
        rmSync(file, { force: true })
        return
      }
      if (!safeStorage.isEncryptionAvailable()) throw new Error(warning ?? 'Key store unavailable')
      ensurePrivateDir(dirname(file))
      writePrivateFileSync(`${file}.tmp`, safeStorage.encryptString(key))
      renameSync(`${file}.tmp`, file)
    }
  }
}
