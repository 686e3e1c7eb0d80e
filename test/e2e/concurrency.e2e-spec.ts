import { DataSource } from 'typeorm';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

/** Every request of these tests must answer within this bound: a hang is a failure, not a timeout. */
const ANSWER_WITHIN_MS = 5_000;

interface HttpAnswer {
  status: number;
  body: unknown;
}

async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const refreshWith = (baseUrl: string, refreshToken: string) =>
  call(baseUrl, '/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ refresh_token: refreshToken }).toString(),
  });

const statuses = (answers: HttpAnswer[]) => answers.map((answer) => answer.status).sort();

describe('concurrent requests over real HTTP', () => {
  describe('refresh without a reuse grace window', () => {
    let sut: TestApp;
    let baseUrl: string;

    beforeAll(async () => {
      sut = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
      baseUrl = await sut.listen();
    });
    afterAll(() => sut.close());

    it('ten concurrent refreshes of one token: one 200, nine 401, and the session is revoked', async () => {
      const user: TestUser = await registerUser(sut);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => refreshWith(baseUrl, user.refreshToken)),
      );
      expect(statuses(answers)).toEqual([200, ...Array(9).fill(401)]);
      for (const answer of answers.filter(({ status }) => status === 401)) {
        expect(answer.body).toEqual({ detail: 'Invalid refresh token' });
      }
      const [session] = await sut.app
        .get(DataSource)
        .query('SELECT revoked_at FROM sessions WHERE user_id = $1', [user.id]);
      expect(session.revoked_at).not.toBeNull();
    });

    it('keeps answering every kind of request while many run at once', async () => {
      const users = await Promise.all(Array.from({ length: 4 }, () => registerUser(sut)));
      const answers = await Promise.all(
        users.flatMap((user) => [
          call(baseUrl, '/api/v1/auth/me', { headers: user.headers }),
          call(baseUrl, '/api/v1/preferences/', {
            method: 'POST',
            headers: { ...user.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ experience_level: 'beginner', risk_tolerance: 'moderate' }),
          }),
          call(baseUrl, '/api/v1/portfolio/transactions', {
            method: 'POST',
            headers: { ...user.headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              symbol: 'AAPL',
              side: 'buy',
              quantity: 1,
              price: 100,
              executed_at: '2024-01-02T15:00:00Z',
            }),
          }),
          refreshWith(baseUrl, user.refreshToken),
        ]),
      );
      expect(answers.filter(({ status }) => status >= 500)).toEqual([]);
      expect(statuses(answers)).toEqual([...Array(8).fill(200), ...Array(8).fill(201)].sort());
    });
  });
});
