// Issue 29 item 6: a fork has its parent's prompts, so the session list gave it the parent's
// title and the two could not be told apart. A fork is listed as `Fork of “<first prompt>”`.
import { describe, expect, it } from 'vitest'
import { Sources } from '../../src/core/sources/discovery'
import { forkSession } from '../../src/core/session/fork'
import { SessionStore } from '../../src/core/session/store'
import { fakeHomes } from './fake-homes'

describe('a fork in the session list', () => {
  it('is titled “Fork of” its first prompt; the session it came from keeps its title', () => {
    const h = fakeHomes()
    const origin = SessionStore.create({ home: h.home, cwd: h.ws })
    const prompt = origin.appendMessage({ role: 'user', content: 'add a test for login' })
    origin.appendMessage({ role: 'assistant', content: 'Added.' })
    const fork = forkSession(h.home, origin, prompt.uuid)
    fork.close()
    origin.close()
    const listed = new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    const titles = new Map(listed.map((s) => [s.file, s.title]))
    expect(titles.get(origin.file)).toBe('add a test for login')
    expect(titles.get(fork.file)).toBe('Fork of “add a test for login”')
  })
})
