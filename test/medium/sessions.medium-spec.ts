import { DataSource } from 'typeorm';
import { AuthModule } from '../../src/modules/auth/auth.module';
import { SessionsService } from '../../src/modules/auth/sessions.service';
import { newUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

const client = { userAgent: 'medium-test', ip: '127.0.0.1' };

/** Sessions and refresh-token rotation on a real database, without HTTP. */
describe('SessionsService on PostgreSQL', () => {
  let medium: MediumModule;
  let sessions: SessionsService;

  beforeAll(async () => {
    medium = await bootMedium(AuthModule);
    sessions = medium.get(SessionsService);
  });
  afterAll(() => medium.close());

  const stored = (sql: string, values: unknown[]) => medium.get(DataSource).query(sql, values);

  it('starting a session stores the session and its first refresh token together', async () => {
    const user = await newUser(medium);
    await sessions.start(user.id, client);
    const [session] = await stored('SELECT id, user_agent, client_ip FROM sessions WHERE user_id = $1', [
      user.id,
    ]);
    expect(session).toMatchObject({ user_agent: 'medium-test', client_ip: '127.0.0.1' });
    const tokens = await stored('SELECT session_id, revoked_at FROM refresh_tokens WHERE user_id = $1', [
      user.id,
    ]);
    expect(tokens).toEqual([{ session_id: session.id, revoked_at: null }]);
  });

  it('a rotation revokes the presented token, records its successor, and a second use revokes the session', async () => {
    const user = await newUser(medium);
    const first = await sessions.start(user.id, client);
    const rotated = await sessions.rotate(first.refreshToken, client);
    expect(rotated).toMatchObject({ outcome: 'rotated', userId: user.id });

    const rows = await stored(
      'SELECT revoked_at IS NOT NULL AS revoked, replaced_by IS NOT NULL AS replaced FROM refresh_tokens WHERE user_id = $1 ORDER BY created_at, revoked_at NULLS LAST',
      [user.id],
    );
    expect(rows).toEqual([
      { revoked: true, replaced: true },
      { revoked: false, replaced: false },
    ]);
    expect(await sessions.list(user.id)).toHaveLength(1);
  });

  it('revoking every session but one leaves exactly that one live', async () => {
    const user = await newUser(medium);
    await sessions.start(user.id, client);
    await sessions.start(user.id, client);
    const kept = (await sessions.list(user.id))[0].id;
    await sessions.revokeAllSessions(user.id, kept);
    expect((await sessions.list(user.id)).map(({ id }) => id)).toEqual([kept]);
    const liveTokens = await stored(
      'SELECT session_id FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL',
      [user.id],
    );
    expect(liveTokens).toEqual([{ session_id: kept }]);
  });
});
