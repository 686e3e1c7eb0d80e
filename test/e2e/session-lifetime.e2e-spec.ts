import { registerUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';

const DAY_MS = 86_400_000;

describe('the absolute lifetime of a session (AUTH_SESSION_MAX_DAYS)', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock, env: { AUTH_SESSION_MAX_DAYS: '30' } });
  });
  afterAll(() => sut.close());

  const refresh = (refreshToken: string) =>
    sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: new URLSearchParams({ refresh_token: refreshToken }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('refreshes weekly until the session is 30 days old, then answers 401 until the user logs in again', async () => {
    const user = await registerUser(sut);
    let refreshToken = user.refreshToken;
    for (let week = 1; week <= 4; week += 1) {
      clock.advance(7 * DAY_MS);
      const answer = await refresh(refreshToken);
      expect(answer.statusCode).toBe(200);
      refreshToken = answer.json().refresh_token;
    }
    clock.advance(2 * DAY_MS - 60_000);
    const lastMinute = await refresh(refreshToken);
    expect(lastMinute.statusCode).toBe(200);
    refreshToken = lastMinute.json().refresh_token;

    clock.advance(60_000);
    const expired = await refresh(refreshToken);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: 'Invalid refresh token' });
    const me = await sut.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${lastMinute.json().access_token}` },
    });
    expect(me.statusCode).toBe(401);

    const again = await sut.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: new URLSearchParams({ username: user.email, password: user.password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.statusCode).toBe(200);
    expect((await refresh(again.json().refresh_token)).statusCode).toBe(200);
  });
});
