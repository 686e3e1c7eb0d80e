import { configurationProblems, describeProblems } from './configuration-problems';

describe('configurationProblems', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('lists the bad variables of every namespace, one line each, not only the first namespace', () => {
    process.env = {
      ...saved,
      PORT: 'eighty',
      JWT_ALGORITHM: 'RS256',
      MARKET_DATA_PROVIDER: 'alphavantage',
      ALPHA_VANTAGE_API_KEY: '',
      REDIS_URL: 'localhost:6379',
    };
    const problems = configurationProblems();
    expect(problems).toEqual([
      expect.stringMatching(/^PORT="eighty": .*PORT must be an integer$/),
      'JWT_ALGORITHM="RS256": JWT_ALGORITHM must be one of HS256, HS384, HS512',
      'REDIS_URL="localhost:6379": REDIS_URL must be a redis:// or rediss:// URL',
      'ALPHA_VANTAGE_API_KEY is required for the alphavantage provider',
    ]);
    expect(describeProblems(problems).split('\n')).toEqual([
      'Invalid environment configuration:',
      ...problems.map((problem) => `  - ${problem}`),
    ]);
  });

  it('finds nothing wrong with the defaults', () => {
    expect(configurationProblems()).toEqual([]);
  });

  it('lets an unexpected failure through', () => {
    const broken = () => {
      throw new TypeError('boom');
    };
    expect(() => configurationProblems([broken])).toThrow('boom');
  });
});
