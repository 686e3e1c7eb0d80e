import { Module } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { defer, lastValueFrom } from 'rxjs';
import { DataSource } from 'typeorm';
import { InvalidFieldError } from '../../src/common/errors/domain-errors';
import { IdempotencyInterceptor } from '../../src/modules/idempotency/idempotency.interceptor';
import { IdempotencyModule } from '../../src/modules/idempotency/idempotency.module';
import { IdempotencyService } from '../../src/modules/idempotency/idempotency.service';
import { UsersModule } from '../../src/modules/users/users.module';
import { newUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

@Module({ imports: [IdempotencyModule, UsersModule] })
class IdempotencyWithUsersModule {}

/**
 * The `@Idempotent()` interceptor on a real database: the handler's writes, the key and the answer
 * commit together or not at all. The handler here writes a row of a table of its own through the
 * transaction context, as a service's repository does.
 */
describe('IdempotencyInterceptor on PostgreSQL', () => {
  let medium: MediumModule;
  let sut: IdempotencyInterceptor;
  let host: TransactionHost<TransactionalAdapterTypeOrm>;

  beforeAll(async () => {
    medium = await bootMedium(IdempotencyWithUsersModule);
    sut = new IdempotencyInterceptor(medium.get(IdempotencyService));
    host = medium.get(TransactionHost) as TransactionHost<TransactionalAdapterTypeOrm>;
    await stored('CREATE TABLE idempotency_probe (user_id integer NOT NULL, note text NOT NULL)');
  });
  afterAll(() => medium.close());

  const stored = (sql: string, values: unknown[] = []) => medium.get(DataSource).query(sql, values);
  const notes = async (userId: number) =>
    (
      (await stored('SELECT note FROM idempotency_probe WHERE user_id = $1 ORDER BY note', [userId])) as {
        note: string;
      }[]
    ).map((row) => row.note);
  const keys = (userId: number) =>
    stored('SELECT key, response FROM idempotency_keys WHERE user_id = $1', [userId]);

  /** A POST to /probe with this body (and key), answered by writing `note` and returning it. */
  const send = (userId: number, body: object, key?: string, answer = (note: string) => ({ note })) => {
    const request = {
      method: 'POST',
      url: '/probe',
      routeOptions: { url: '/probe' },
      headers: key === undefined ? {} : { 'idempotency-key': key },
      params: {},
      query: {},
      body,
      user: { id: userId },
    };
    const note = (body as { note: string }).note;
    const handler = {
      handle: () =>
        defer(async () => {
          await host.tx.query('INSERT INTO idempotency_probe (user_id, note) VALUES ($1, $2)', [
            userId,
            note,
          ]);
          return answer(note);
        }),
    };
    return lastValueFrom(sut.intercept(new ExecutionContextHost([request, {}]), handler));
  };

  it('runs the handler once per key and replays its answer; without a key every request runs', async () => {
    const user = await newUser(medium);
    const first = await send(user.id, { note: 'a' }, 'k1');
    const retry = await send(user.id, { note: 'a' }, 'k1');

    expect(first).toEqual({ note: 'a' });
    expect(retry).toEqual(first);
    expect(await keys(user.id)).toEqual([{ key: 'k1', response: { note: 'a' } }]);
    await send(user.id, { note: 'b' });
    await send(user.id, { note: 'b' });
    expect(await notes(user.id)).toEqual(['a', 'b', 'b']);
  });

  it('answers 422 to the key with another request, and runs nothing', async () => {
    const user = await newUser(medium);
    await send(user.id, { note: 'a' }, 'k1');

    await expect(send(user.id, { note: 'other' }, 'k1')).rejects.toBeInstanceOf(InvalidFieldError);
    expect(await notes(user.id)).toEqual(['a']);
  });

  it('rolls back the handler’s write with the key when the answer cannot be made: a retry runs', async () => {
    const user = await newUser(medium);
    const failing = () => {
      throw new Error('mapping failed');
    };

    await expect(send(user.id, { note: 'a' }, 'k1', failing)).rejects.toThrow('mapping failed');
    expect(await notes(user.id)).toEqual([]);
    expect(await keys(user.id)).toEqual([]);

    expect(await send(user.id, { note: 'a' }, 'k1')).toEqual({ note: 'a' });
    expect(await notes(user.id)).toEqual(['a']);
  });

  it('makes a concurrent duplicate wait for the first, then answers it alike', async () => {
    const user = await newUser(medium);
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(user.id, { note: 'a' }, 'k1')));

    for (const answer of answers) expect(answer).toEqual({ note: 'a' });
    expect(await notes(user.id)).toEqual(['a']);
  });
});
