// Picks the model client from a model spec: `scripted:FILE` is the offline scripted model, any
// other spec is an Anthropic model id.
import { CodedError } from '../../../shared/coded-error'
import { resolve } from 'node:path'
import { AnthropicModel } from './anthropic'
import type { ModelClient } from './model-client'
import { ScriptedModel } from './scripted'

export const SCRIPTED_PREFIX = 'scripted:'

export interface ModelClientOptions {
  /** ANTHROPIC_API_KEY or the stored key; not needed by the scripted model. */
  apiKey?: string
  /** Defaults to ANTHROPIC_BASE_URL. */
  baseURL?: string
  /** A relative script path resolves against this directory (default: the process's). */
  baseDir?: string
  maxRetries?: number
}

/** A model that cannot be set up as asked (no key, a script that does not load): one line. */
export class ModelConfigError extends CodedError {
  override name = 'ModelConfigError'
  constructor(message: string) {
    super('unavailable', message)
  }
}

export function isScriptedSpec(spec: string): boolean {
  return spec.startsWith(SCRIPTED_PREFIX)
}

export async function createModelClient(
  spec: string,
  options: ModelClientOptions = {}
): Promise<ModelClient> {
  if (isScriptedSpec(spec)) {
    const file = spec.slice(SCRIPTED_PREFIX.length)
    if (file === '')
      throw new ModelConfigError('The scripted model needs a file: --model scripted:FILE')
    return ScriptedModel.load(resolve(options.baseDir ?? process.cwd(), file)).catch(
      (error: unknown) => {
        throw new ModelConfigError((error as Error).message)
      }
    )
  }
  if (spec.trim() === '')
    throw new ModelConfigError(
      'No model given: pass --model, set "model" in settings, or ANTHROPIC_MODEL.'
    )
  if (options.apiKey === undefined || options.apiKey === '') {
    throw new ModelConfigError(
      `Model ${spec} needs an API key: set ANTHROPIC_API_KEY (or use --model scripted:FILE to run offline).`
    )
  }
  return new AnthropicModel({
    apiKey: options.apiKey,
    model: spec,
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {})
  })
}
