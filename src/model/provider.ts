import { InputError } from '../action/input-error.js'
import type { ProviderConfig } from '../loop/settings.js'

/**
 * Which service answers the Messages API calls, decided once from the inputs and the environment.
 * A pure function of both, so every rule below is unit-tested without credentials or network.
 */
export const MODEL_PROVIDERS = ['auto', 'anthropic', 'bedrock', 'vertex'] as const
export type ModelProviderChoice = (typeof MODEL_PROVIDERS)[number]
export type ProviderName = Exclude<ModelProviderChoice, 'auto'>

/** The inputs that choose the provider (already trimmed; empty means unset). */
export interface ProviderInputs {
  modelProvider: ModelProviderChoice
  apiKey: string
  baseUrl?: string
  awsRegion?: string
  vertexProjectId?: string
  vertexRegion?: string
}

export type Env = Record<string, string | undefined>

export const DEFAULT_VERTEX_REGION = 'us-east5'

function set(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value ? value : undefined
}

/**
 * AWS credentials the SDK's default provider chain will find: static keys, web identity (OIDC, as
 * aws-actions/configure-aws-credentials exports with role-to-assume), a profile, container
 * credentials, or a Bedrock API key.
 */
export function hasAwsCredentials(env: Env): boolean {
  return (
    (set(env, 'AWS_ACCESS_KEY_ID') !== undefined &&
      set(env, 'AWS_SECRET_ACCESS_KEY') !== undefined) ||
    [
      'AWS_WEB_IDENTITY_TOKEN_FILE',
      'AWS_PROFILE',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
      'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
      'AWS_BEARER_TOKEN_BEDROCK'
    ].some(name => set(env, name) !== undefined)
  )
}

/** Google Application Default Credentials from a file, as google-github-actions/auth exports. */
export function hasGoogleCredentials(env: Env): boolean {
  return set(env, 'GOOGLE_APPLICATION_CREDENTIALS') !== undefined
}

function bedrock(inputs: ProviderInputs, env: Env, explicit: boolean): ProviderConfig | undefined {
  const awsRegion = inputs.awsRegion || set(env, 'AWS_REGION') || set(env, 'AWS_DEFAULT_REGION')
  const credentials = hasAwsCredentials(env)
  if (credentials && awsRegion) return { name: 'bedrock', awsRegion, baseUrl: inputs.baseUrl }
  if (!explicit) return undefined
  if (!credentials) {
    throw new InputError(
      'model-provider',
      "is 'bedrock' but no AWS credentials are in the environment. Add an aws-actions/configure-aws-credentials step before this one (with role-to-assume and the job permission 'id-token: write'), or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_BEARER_TOKEN_BEDROCK)."
    )
  }
  throw new InputError(
    'aws-region',
    'is empty and neither AWS_REGION nor AWS_DEFAULT_REGION is set, so Bedrock has no region. Set aws-region (for example us-east-1), or the aws-region of aws-actions/configure-aws-credentials.'
  )
}

function vertex(inputs: ProviderInputs, env: Env, explicit: boolean): ProviderConfig | undefined {
  const region = inputs.vertexRegion || set(env, 'CLOUD_ML_REGION') || DEFAULT_VERTEX_REGION
  // an explicit choice may also take the project google-github-actions/auth exports
  const projectId =
    inputs.vertexProjectId ||
    set(env, 'ANTHROPIC_VERTEX_PROJECT_ID') ||
    (explicit ? set(env, 'GOOGLE_CLOUD_PROJECT') || set(env, 'GCLOUD_PROJECT') : undefined)
  const credentials = hasGoogleCredentials(env)
  if (projectId && credentials)
    return { name: 'vertex', projectId, region, baseUrl: inputs.baseUrl }
  if (!explicit) return undefined
  if (!projectId) {
    throw new InputError(
      'vertex-project-id',
      "is empty and ANTHROPIC_VERTEX_PROJECT_ID is not set, but model-provider is 'vertex'. Set vertex-project-id to the Google Cloud project that has Claude enabled in Vertex AI."
    )
  }
  throw new InputError(
    'model-provider',
    "is 'vertex' but GOOGLE_APPLICATION_CREDENTIALS is not set. Add a google-github-actions/auth step before this one (workload_identity_provider and service_account, with the job permission 'id-token: write')."
  )
}

/**
 * The provider the inputs and environment select, or undefined for none (the loop then runs
 * gates-only). `auto` takes the Anthropic API when its key is set, else none; Bedrock and Vertex are
 * explicit choices. An explicit provider whose credentials are missing is an InputError saying what
 * to set.
 */
export function resolveProvider(inputs: ProviderInputs, env: Env): ProviderConfig | undefined {
  switch (inputs.modelProvider) {
    case 'anthropic':
      if (!inputs.apiKey) {
        throw new InputError(
          'anthropic-api-key',
          "is empty but model-provider is 'anthropic'. Pass the key as a secret (anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}), or choose model-provider bedrock or vertex."
        )
      }
      return { name: 'anthropic', apiKey: inputs.apiKey, baseUrl: inputs.baseUrl }
    case 'bedrock':
      return bedrock(inputs, env, true)
    case 'vertex':
      return vertex(inputs, env, true)
    case 'auto':
      // Cloud credentials present for other steps (a deploy) must not switch on paid AI by
      // themselves: Bedrock and Vertex are chosen explicitly.
      return inputs.apiKey
        ? { name: 'anthropic', apiKey: inputs.apiKey, baseUrl: inputs.baseUrl }
        : undefined
  }
}

/** How the log names a provider. */
export function describeProvider(provider: ProviderConfig): string {
  switch (provider.name) {
    case 'anthropic':
      return provider.baseUrl ? `the Anthropic API at ${provider.baseUrl}` : 'the Anthropic API'
    case 'bedrock':
      return `Amazon Bedrock in ${provider.awsRegion}`
    case 'vertex':
      return `Google Vertex AI in ${provider.region} (project ${provider.projectId})`
  }
}
