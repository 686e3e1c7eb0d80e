import { registerAs } from '@nestjs/config';
import { HttpUrlVar, IntVar, OneOfVar, readEnv, StringVar } from './env';

export const AI_PROVIDERS = ['offline', 'openai'] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];

class AssistantEnv {
  @OneOfVar(AI_PROVIDERS)
  AI_PROVIDER?: AiProviderName;

  @HttpUrlVar()
  AI_BASE_URL?: string;

  @StringVar()
  AI_API_KEY?: string;

  @StringVar()
  AI_MODEL?: string;

  @IntVar({ min: 100, max: 300_000 })
  AI_TIMEOUT_MS?: number;

  @IntVar({ min: 1, max: 10 })
  AI_MAX_TOOL_ROUNDS?: number;

  @IntVar({ min: 16, max: 32_000 })
  AI_MAX_TOKENS?: number;

  @IntVar({ min: 1, max: 10_000 })
  ASSISTANT_CHAT_TURNS_PER_MINUTE?: number;

  @IntVar({ min: 1, max: 1_000 })
  ASSISTANT_STREAMS_PER_USER?: number;

  @IntVar({ min: 1, max: 100_000 })
  ASSISTANT_STREAMS_TOTAL?: number;
}

export const assistantConfig = registerAs('assistant', () => {
  const env = readEnv(AssistantEnv);
  const provider = env.AI_PROVIDER ?? 'offline';
  if (provider === 'openai' && !env.AI_BASE_URL) {
    throw new Error('Invalid environment configuration: AI_BASE_URL is required for the openai AI provider');
  }
  return {
    provider,
    /** The `/v1` prefix of `/chat/completions`; set whenever the provider is `openai`. */
    baseUrl: (env.AI_BASE_URL ?? '').replace(/\/+$/, ''),
    apiKey: env.AI_API_KEY ?? null,
    model: env.AI_MODEL ?? 'gpt-4o-mini',
    timeoutMs: env.AI_TIMEOUT_MS ?? 20_000,
    maxToolRounds: env.AI_MAX_TOOL_ROUNDS ?? 4,
    maxTokens: env.AI_MAX_TOKENS ?? 800,
    chatTurnsPerMinute: env.ASSISTANT_CHAT_TURNS_PER_MINUTE ?? 30,
    /** Server-Sent Events chat answers open at once on one instance, per user and in all. */
    streamsPerUser: env.ASSISTANT_STREAMS_PER_USER ?? 3,
    streamsTotal: env.ASSISTANT_STREAMS_TOTAL ?? 200,
  };
});

export type AssistantConfig = ReturnType<typeof assistantConfig>;
