import { assistantConfig } from './assistant.config';

describe('assistant configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  function withEnv(env: Record<string, string>): void {
    for (const key of Object.keys(process.env)) {
      if (key.startsWith('AI_') || key.startsWith('ASSISTANT_')) delete process.env[key];
    }
    Object.assign(process.env, env);
  }

  it('defaults to the offline engine, 30 chat turns a minute, and 3 open streams per user (200 in all)', () => {
    withEnv({});
    expect(assistantConfig()).toEqual({
      provider: 'offline',
      baseUrl: '',
      apiKey: null,
      model: 'gpt-4o-mini',
      timeoutMs: 20_000,
      maxToolRounds: 4,
      maxTokens: 800,
      chatTurnsPerMinute: 30,
      streamsPerUser: 3,
      streamsTotal: 200,
    });
  });

  it('needs AI_BASE_URL for an OpenAI-compatible model and bounds the numbers', () => {
    withEnv({ AI_PROVIDER: 'openai' });
    expect(() => assistantConfig()).toThrow('AI_BASE_URL is required for the openai AI provider');
    withEnv({ AI_PROVIDER: 'openai', AI_BASE_URL: 'http://localhost:11434/v1/', AI_MAX_TOOL_ROUNDS: '0' });
    expect(() => assistantConfig()).toThrow('AI_MAX_TOOL_ROUNDS');
    withEnv({ AI_PROVIDER: 'openai', AI_BASE_URL: 'http://localhost:11434/v1/' });
    expect(assistantConfig().baseUrl).toBe('http://localhost:11434/v1');
    withEnv({ ASSISTANT_STREAMS_PER_USER: '0' });
    expect(() => assistantConfig()).toThrow('ASSISTANT_STREAMS_PER_USER');
    withEnv({ AI_PROVIDER: 'anthropic' });
    expect(() => assistantConfig()).toThrow('AI_PROVIDER must be one of offline, openai');
  });
});
