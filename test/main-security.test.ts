// The Electron main process's security settings, checked without an Electron binary: the window
// options and guards are plain functions over electron's types. The Electron e2e suite
// (e2e/electron.spec.ts) checks the same settings on a real window where a binary exists.
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import type { Session, WebContents } from 'electron'
import { isTrustedSender } from '../src/main/sender-check'
import {
  denyPermissions,
  hardenWebContents,
  isSafeExternalUrl,
  secureWindowOptions
} from '../src/main/window'

describe('window options', () => {
  it('isolates and sandboxes the renderer, with no Node and web security on', () => {
    const prefs = secureWindowOptions('/app/preload.cjs').webPreferences
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false
    })
  })
})

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler
  }
}

function preventable() {
  let prevented = false
  return {
    event: { preventDefault: () => (prevented = true) },
    prevented: () => prevented
  }
}

describe('navigation and new windows', () => {
  const appUrl = (url: string) => url.startsWith('file:///app/')

  it('blocks navigation away from the app and every webview', () => {
    const contents = new FakeContents()
    hardenWebContents(contents as unknown as WebContents, appUrl, () => {})
    const away = preventable()
    contents.emit('will-navigate', away.event, 'https://example.com/')
    expect(away.prevented()).toBe(true)
    const home = preventable()
    contents.emit('will-navigate', home.event, 'file:///app/index.html')
    expect(home.prevented()).toBe(false)
    const webview = preventable()
    contents.emit('will-attach-webview', webview.event)
    expect(webview.prevented()).toBe(true)
  })

  it('denies every new window, handing only https links to the system browser', () => {
    const contents = new FakeContents()
    const opened: string[] = []
    hardenWebContents(contents as unknown as WebContents, appUrl, (url) => opened.push(url))
    for (const url of [
      'https://docs.anthropic.com/',
      'http://plain.example/',
      'file:///etc/passwd',
      'javascript:alert(1)'
    ]) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' })
    }
    expect(opened).toEqual(['https://docs.anthropic.com/'])
    expect(isSafeExternalUrl('not a url')).toBe(false)
  })

  it('denies permission requests and checks', () => {
    type RequestHandler = (c: unknown, p: string, cb: (ok: boolean) => void) => void
    const handlers: { request?: RequestHandler; check?: () => boolean } = {}
    const session = {
      setPermissionRequestHandler: (h: RequestHandler) => (handlers.request = h),
      setPermissionCheckHandler: (h: () => boolean) => (handlers.check = h)
    }
    denyPermissions(session as unknown as Session)
    const granted: boolean[] = []
    handlers.request?.(null, 'media', (ok) => granted.push(ok))
    expect(granted).toEqual([false])
    expect(handlers.check?.()).toBe(false)
  })
})

describe('IPC sender check', () => {
  const mainFrame = { url: 'file:///app/index.html' }
  const window = { id: 7, mainFrame } as unknown as WebContents
  const appUrl = (url: string) => url.startsWith('file:///app/')

  it('accepts only our window’s main frame showing our page', () => {
    const ok = { sender: { id: 7 }, senderFrame: mainFrame }
    expect(isTrustedSender(ok as never, window, appUrl)).toBe(true)
    expect(
      isTrustedSender({ sender: { id: 8 }, senderFrame: mainFrame } as never, window, appUrl)
    ).toBe(false)
    const subframe = { url: 'file:///app/index.html' }
    expect(
      isTrustedSender({ sender: { id: 7 }, senderFrame: subframe } as never, window, appUrl)
    ).toBe(false)
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: null } as never, window, appUrl)).toBe(
      false
    )
    const elsewhere = {
      id: 7,
      mainFrame: { url: 'https://evil.example/' }
    } as unknown as WebContents
    const event = { sender: { id: 7 }, senderFrame: elsewhere.mainFrame }
    expect(isTrustedSender(event as never, elsewhere, appUrl)).toBe(false)
  })
})
