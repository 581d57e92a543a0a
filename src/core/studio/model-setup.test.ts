import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSettings, writeSettings } from '../settings'
import { demoScript, ModelSetup } from './model-setup'
import { memorySecrets } from './secret-store'

function setup(
  overrides: Partial<ConstructorParameters<typeof ModelSetup>[0]> = {},
  env: NodeJS.ProcessEnv = {}
) {
  const home = mkdtempSync(join(tmpdir(), 'rs-models-'))
  const make = () =>
    new ModelSetup({
      home,
      appRoot: '/app',
      secrets: memorySecrets(),
      model: undefined,
      permissionMode: undefined,
      settingOverrides: [],
      env,
      ...overrides
    })
  return { home, make }
}

describe('ModelSetup', () => {
  it('takes the model from --model, then settings, then ANTHROPIC_MODEL', () => {
    const key = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'from-env' }
    const { home, make } = setup({}, key)
    expect(make().settings().model).toBe('from-env')
    writeSettings(home, { model: 'from-settings' })
    expect(make().settings().model).toBe('from-settings')
    const flagged = setup({ model: 'from-flag' }, key)
    writeSettings(flagged.home, { model: 'from-settings' })
    expect(flagged.make().settings().model).toBe('from-flag')
  })

  it('answers with the demo script when an API model has no key, and says so', () => {
    const { make } = setup({ model: 'claude-x' })
    const models = make()
    expect(models.effectiveModel()).toBe(`scripted:${demoScript('/app')}`)
    expect(models.isScripted()).toBe(true)
    expect(models.notices().join()).toMatch(/No API key.*claude-x/)
    expect(models.settings().apiKeySource).toBe('none')
  })

  // The lead's pass (stop 21): the settings showed the demo's model in place of the one asked
  // for, and the dialog saved it with any other change: a key added later still met the demo.
  it('shows and keeps the model asked for while the demo answers for want of a key', async () => {
    const { home, make } = setup()
    writeSettings(home, { model: 'claude-x' })
    const models = make()
    expect(models.settings().model).toBe('claude-x')
    expect(models.effectiveModel()).toMatch(/^scripted:/)
    // What the settings dialog sends back: the model it showed, and the change made.
    await models.update({ model: models.settings().model, permissionMode: 'acceptEdits' })
    expect(readSettings(home).model).toBe('claude-x')
  })

  it('uses a key typed into settings, and never shows it', async () => {
    const { make } = setup({ model: 'claude-x' })
    const models = make()
    await models.update({ apiKey: 'sk-secret' })
    expect(models.settings()).toMatchObject({ model: 'claude-x', apiKeySource: 'settings' })
    expect(JSON.stringify(models.settings())).not.toContain('sk-secret')
  })

  it('lets a saved choice win over this run’s flags', async () => {
    const { make } = setup({
      permissionMode: 'bypassPermissions',
      settingOverrides: ['checkpoint.enabled=true']
    })
    const models = make()
    expect(models.settings()).toMatchObject({
      permissionMode: 'bypassPermissions',
      checkpointEnabled: true
    })
    await models.update({ permissionMode: 'default', checkpointEnabled: false })
    expect(models.settings()).toMatchObject({ permissionMode: 'default', checkpointEnabled: false })
  })

  // Issue 26: "The Settings "Checkpoint tools" box is unchecked while the demo agent uses them."
  it('has the checkpoint tools on while the demo script stands in for the model, unless set', async () => {
    const { make } = setup({ model: 'claude-x' })
    const models = make()
    expect(models.settings().checkpointEnabled).toBe(true)
    await models.update({ checkpointEnabled: false })
    expect(models.settings().checkpointEnabled).toBe(false)
    // With a key the model asked for answers: the tools are off unless set.
    expect(
      setup({ model: 'claude-x' }, { ANTHROPIC_API_KEY: 'k' }).make().settings()
    ).toMatchObject({ checkpointEnabled: false })
    // A scripted model named on purpose is no stand-in: its setting is its own.
    expect(setup({ model: 'scripted:mine.json' }).make().settings().checkpointEnabled).toBe(false)
  })
})
