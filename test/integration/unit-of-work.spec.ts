import { TransactionHost } from '@nestjs-cls/transactional';
import { DataSource } from 'typeorm';
import { UsersRepository } from '../../src/modules/users/users.repository';
import { createTestApp, TestApp } from '../setup/test-app';

/** The transaction context on a real database: repositories join the unit of work they are called in. */
describe('the unit of work (nestjs-cls transactions)', () => {
  let app: TestApp;
  let host: TransactionHost;
  let users: UsersRepository;
  let sequence = 0;

  beforeAll(async () => {
    app = await createTestApp();
    host = app.app.get(TransactionHost);
    users = app.app.get(UsersRepository);
  });
  afterAll(() => app.close());

  const row = () => ({
    email: `unit-of-work-${++sequence}@example.com`,
    fullName: 'Unit of Work',
    hashedPassword: 'not-a-real-hash',
    isActive: true,
    isSuperuser: false,
  });
  const storedElsewhere = async (email: string) =>
    (
      await app.app
        .get(DataSource)
        .query<{ count: number }[]>('SELECT count(*)::int AS count FROM users WHERE email = $1', [email])
    )[0].count;

  it('a read inside the unit of work sees its own uncommitted write; another connection does not', async () => {
    const { email } = row();
    const seen = await host.withTransaction(async () => {
      await users.insert({ ...row(), email });
      return {
        inside: (await users.findWithPasswordHash(email))?.user.email ?? null,
        elsewhere: await storedElsewhere(email),
      };
    });
    expect(seen).toEqual({ inside: email, elsewhere: 0 });
    expect(await storedElsewhere(email)).toBe(1);
  });

  it('a failure anywhere in the unit of work stores none of its writes', async () => {
    const first = row();
    const second = row();
    await expect(
      host.withTransaction(async () => {
        await users.insert(first);
        await users.insert(second);
        throw new Error('the last step failed');
      }),
    ).rejects.toThrow('the last step failed');
    expect([await storedElsewhere(first.email), await storedElsewhere(second.email)]).toEqual([0, 0]);
  });

  it('outside a unit of work each repository call commits on its own', async () => {
    const alone = row();
    await users.insert(alone);
    expect(await storedElsewhere(alone.email)).toBe(1);
  });
});
