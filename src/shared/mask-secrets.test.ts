import { describe, expect, it } from 'vitest'
import { maskSecrets, maskSecretsIn } from './mask-secrets'

// Built at run time: the test file holds nothing a secret scanner would flag.
const anthropic = `sk-ant-api03-${'aB3'.repeat(31)}xy`
const openai = `sk-proj-${'Zq8'.repeat(15)}`

describe('maskSecrets', () => {
  it('keeps the kind and the length of each key it masks', () => {
    expect(maskSecrets(`key=${anthropic};`)).toBe('key=sk-ant-…(108 chars, masked);')
    expect(maskSecrets(openai)).toBe('sk-proj-…(53 chars, masked)')
    expect(maskSecrets(`sk-${'T3Bl'.repeat(12)}`)).toBe('sk-…(51 chars, masked)')
    expect(maskSecrets(`id AKIA${'Q7ZX'.repeat(4)} ok`)).toBe('id AKIA…(20 chars, masked) ok')
    expect(maskSecrets(`ghp_${'k9Lm'.repeat(9)}`)).toBe('ghp_…(40 chars, masked)')
    expect(maskSecrets(`github_pat_11AB${'c4D'.repeat(10)}`)).toBe('github_pat_…(45 chars, masked)')
    expect(maskSecrets(`xoxb-123-${'a1B2'.repeat(4)}`)).toBe('xoxb-…(25 chars, masked)')
    expect(maskSecrets(`AIza${'Sy0'.repeat(11)}_-`)).toBe('AIza…(39 chars, masked)')
    expect(maskSecrets(`Authorization: Bearer eyJh.${'bG9'.repeat(8)}.s1g`)).toBe(
      'Authorization: Bearer …(33 chars, masked)'
    )
  })

  it('masks a PEM private key to its END line, or to the end of the body when cut off', () => {
    const body = `MIIEvQIBADANBg\n${'kqhk'.repeat(10)}==`
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`
    expect(maskSecrets(`a\n${pem}\nb`)).toBe(
      `a\n-----BEGIN RSA PRIVATE KEY-----…(${pem.length} chars, masked)\nb`
    )
    expect(maskSecrets(`-----BEGIN PRIVATE KEY-----\n${body}`)).toMatch(
      /^-----BEGIN PRIVATE KEY-----…\(\d+ chars, masked\)$/
    )
  })

  it('leaves words that only share a prefix, and public keys, readable', () => {
    const text = [
      'pip install sk-learn-compatible-estimators',
      'the Bearer authentication_header_value',
      'task-abcdefghijklmnopqrstuvwxyz0123',
      '-----BEGIN PUBLIC KEY-----'
    ].join('\n')
    expect(maskSecrets(text)).toBe(text)
  })

  it('changes nothing the second time', () => {
    const once = maskSecrets(`${anthropic} ${openai}`)
    expect(maskSecrets(once)).toBe(once)
  })

  it('masks every string inside a value, keys and other types untouched', () => {
    expect(maskSecretsIn({ a: [openai, 1, null, { b: openai }], [openai]: true })).toEqual({
      a: ['sk-proj-…(53 chars, masked)', 1, null, { b: 'sk-proj-…(53 chars, masked)' }],
      [openai]: true
    })
  })

  it('copies only what holds a key: the rest is returned as it is, nothing changed in place', () => {
    const clean = { text: 'nothing here', blocks: [{ type: 'text', text: 'plain' }] }
    expect(maskSecretsIn(clean)).toBe(clean)
    const dirty = { keep: clean, key: [1, `x ${openai}`] }
    const masked = maskSecretsIn(dirty)
    expect(masked).not.toBe(dirty)
    expect(masked.keep).toBe(clean)
    expect(masked.key).toEqual([1, 'x sk-proj-…(53 chars, masked)'])
    expect(dirty.key[1]).toBe(`x ${openai}`)
  })
})

describe('maskSecrets quick test', () => {
  it('lets a Bearer token through in any case of the word, and the other keys as written', () => {
    const token = `eyJh.${'bG9'.repeat(8)}.s1g`
    for (const word of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
      expect(maskSecrets(`Authorization: ${word} ${token}`)).toBe(
        `Authorization: ${word} …(33 chars, masked)`
      )
    // The patterns are case-sensitive: an upper-case `SK-` is no OpenAI key, as before.
    const upper = `SK-PROJ-${'ZQ8'.repeat(15)}`
    expect(maskSecrets(upper)).toBe(upper)
  })
})
