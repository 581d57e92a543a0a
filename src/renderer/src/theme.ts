// The page's theme: System (the OS's colour scheme, followed as it changes), Light or Dark,
// chosen in the header and remembered by this browser (localStorage; another tab follows).
// The root element carries the theme in use (`data-theme`), which styles.css keys its colours
// on; React Flow and the minimap's canvas read it from the store.
import { create } from 'zustand'

export type ThemeChoice = 'system' | 'light' | 'dark'
export type Theme = 'light' | 'dark'

const KEY = 'rewind-studio.theme'
const DARK_OS = '(prefers-color-scheme: dark)'

function stored(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(KEY)
    return value === 'light' || value === 'dark' ? value : 'system'
  } catch {
    // Storage refused (a privacy setting): the OS's scheme, not remembered.
    return 'system'
  }
}

function resolve(choice: ThemeChoice): Theme {
  if (choice !== 'system') return choice
  return window.matchMedia(DARK_OS).matches ? 'dark' : 'light'
}

interface ThemeStore {
  choice: ThemeChoice
  /** The theme in use: the choice, or the OS's scheme for System. */
  theme: Theme
  choose: (choice: ThemeChoice) => void
}

export const useThemeStore = create<ThemeStore>()((set) => ({
  choice: 'system',
  theme: 'light',
  choose: (choice) => {
    try {
      if (choice === 'system') window.localStorage.removeItem(KEY)
      else window.localStorage.setItem(KEY, choice)
    } catch {
      // Not remembered; still applied.
    }
    set({ choice, theme: resolve(choice) })
  }
}))

export const selectTheme = (s: ThemeStore) => s.theme
export const selectThemeChoice = (s: ThemeStore) => s.choice

/** Applies the remembered theme and follows the OS and other tabs. Call once, before render. */
export function startTheme(): void {
  const apply = (choice: ThemeChoice) => useThemeStore.setState({ choice, theme: resolve(choice) })
  useThemeStore.subscribe(({ theme }) => {
    document.documentElement.dataset.theme = theme
  })
  apply(stored())
  document.documentElement.dataset.theme = useThemeStore.getState().theme
  window
    .matchMedia(DARK_OS)
    .addEventListener('change', () => apply(useThemeStore.getState().choice))
  window.addEventListener('storage', (event) => {
    if (event.key === KEY || event.key === null) apply(stored())
  })
}
