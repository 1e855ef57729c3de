import {
  createAnthropicClient,
  explainModelError,
  messagesClient,
  sdkOptions
} from './anthropic.js'
import type { ModelClient } from '../ports/index.js'
import type { ProviderConfig } from '../loop/settings.js'

/**
 * The SDK client of the resolved provider, behind the ModelClient port. Bedrock's and Vertex's SDKs
 * (with the AWS SDK and google-auth-library behind them) are imported on the first call only, so
 * runs on the Anthropic API, and gates-only runs, never load them.
 *
 * Credentials are left to each SDK's default chain: for Bedrock AWS_BEARER_TOKEN_BEDROCK, else SigV4
 * with the AWS credential provider chain (environment keys, web identity, profile, container); for
 * Vertex Google Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS).
 */
export function createModelClient(provider: ProviderConfig, timeoutMs: number): ModelClient {
  if (provider.name === 'anthropic') {
    return createAnthropicClient({ apiKey: provider.apiKey, baseUrl: provider.baseUrl, timeoutMs })
  }
  let loaded: Promise<ModelClient> | undefined
  return {
    async create(request) {
      loaded ??= load(provider, timeoutMs).catch((e: unknown) => {
        loaded = undefined
        throw explainModelError(e, request.model, provider.name)
      })
      return (await loaded).create(request)
    }
  }
}

const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'

async function load(
  provider: Exclude<ProviderConfig, { name: 'anthropic' }>,
  timeoutMs: number
): Promise<ModelClient> {
  switch (provider.name) {
    case 'bedrock': {
      const { AnthropicBedrock } = await import('@anthropic-ai/bedrock-sdk')
      return messagesClient(
        new AnthropicBedrock({
          awsRegion: provider.awsRegion,
          baseURL: provider.baseUrl,
          ...sdkOptions(timeoutMs)
        }),
        'bedrock'
      )
    }
    case 'vertex': {
      const [{ AnthropicVertex }, { GoogleAuth }] = await Promise.all([
        import('@anthropic-ai/vertex-sdk'),
        import('google-auth-library')
      ])
      return messagesClient(
        new AnthropicVertex({
          projectId: provider.projectId,
          region: provider.region,
          baseURL: provider.baseUrl,
          // The SDK's own GoogleAuth would look the project up (gcloud, the GCE metadata server, the
          // Resource Manager API) although it is known; given here, only the token is fetched.
          googleAuth: new GoogleAuth({
            scopes: CLOUD_PLATFORM_SCOPE,
            projectId: provider.projectId
          }),
          ...sdkOptions(timeoutMs)
        }),
        'vertex'
      )
    }
  }
}
