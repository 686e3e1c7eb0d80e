import { DataSource } from 'typeorm';
import { ExpiredSessionsPurge } from '../../src/modules/auth/expired-sessions.purge';
import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';

describe('purge of expired sessions and refresh tokens', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  const count = async (sql: string, values: unknown[]) =>
    Number((await sut.app.get(DataSource).query(sql, values))[0].count);

  it('deletes expired refresh tokens and the sessions they leave behind, and nothing live', async () => {
    const [expired, live] = await Promise.all([registerUser(sut), registerUser(sut)]);
    const database = sut.app.get(DataSource);
    await database.query(
      `UPDATE refresh_tokens SET expires_at = now() - interval '1 day' WHERE user_id = $1`,
      [expired.id],
    );
    await database.query(`UPDATE sessions SET created_at = now() - interval '8 days' WHERE user_id = $1`, [
      expired.id,
    ]);

    const purged = await sut.app.get(ExpiredSessionsPurge).purge();

    expect(purged).toEqual({ refreshTokens: 1, sessions: 1 });
    expect(await count('SELECT count(*) FROM sessions WHERE user_id = $1', [expired.id])).toBe(0);
    expect(await count('SELECT count(*) FROM refresh_tokens WHERE user_id = $1', [live.id])).toBe(1);
    const me = await typedApi(sut, live).GET('/api/v1/auth/me');
    expect(me.response.status).toBe(200);
    expect(await sut.app.get(ExpiredSessionsPurge).purge()).toEqual({ refreshTokens: 0, sessions: 0 });
  });
});
