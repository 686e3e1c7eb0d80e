import { registerUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { asForm, dataOf, typedApi } from '../support/typed-api';

const DAY_MS = 86_400_000;

describe('the absolute lifetime of a session (AUTH_SESSION_MAX_DAYS)', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock, env: { AUTH_SESSION_MAX_DAYS: '30' } });
  });
  afterAll(() => sut.close());

  const refresh = (refreshToken: string) =>
    typedApi(sut).POST('/api/v1/auth/refresh', { body: { refresh_token: refreshToken }, ...asForm });

  it('refreshes weekly until the session is 30 days old, then answers 401 until the user logs in again', async () => {
    const user = await registerUser(sut);
    let refreshToken = user.refreshToken;
    for (let week = 1; week <= 4; week += 1) {
      clock.advance(7 * DAY_MS);
      const answer = await refresh(refreshToken);
      expect(answer.response.status).toBe(200);
      refreshToken = dataOf(answer).refresh_token;
    }
    clock.advance(2 * DAY_MS - 60_000);
    const lastMinute = await refresh(refreshToken);
    expect(lastMinute.response.status).toBe(200);
    refreshToken = dataOf(lastMinute).refresh_token;

    clock.advance(60_000);
    const expired = await refresh(refreshToken);
    expect(expired.response.status).toBe(401);
    expect(expired.error).toEqual({ detail: 'Invalid refresh token' });
    const me = await typedApi(sut).GET('/api/v1/auth/me', {
      headers: { authorization: `Bearer ${dataOf(lastMinute).access_token}` },
    });
    expect(me.response.status).toBe(401);

    const again = await typedApi(sut).POST('/api/v1/auth/login', {
      body: { username: user.email, password: user.password },
      ...asForm,
    });
    expect(again.response.status).toBe(200);
    expect((await refresh(dataOf(again).refresh_token)).response.status).toBe(200);
  });
});
