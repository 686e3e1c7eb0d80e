import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { WindowBounds, WindowCount } from './fixed-window';

/** A limiter's table: the columns its count is kept per, and the column holding the count. */
interface CounterTable {
  name: string;
  key: readonly string[];
  count: string;
}

const COUNTER_TABLES = {
  'rate-limit-windows': { name: 'rate_limit_windows', key: ['bucket'], count: 'hits' },
  'login-attempts': { name: 'login_attempts', key: ['email', 'client_ip'], count: 'failures' },
  'chat-turns': { name: 'assistant_chat_turns', key: ['user_id'], count: 'turns' },
} as const satisfies Record<string, CounterTable>;

export type WindowCounter = keyof typeof COUNTER_TABLES;

interface CountRow {
  count: number;
  window_started_at: Date;
}

/**
 * One atomic upsert that counts one more in the window, or the first of a new one when the stored
 * window opened at or before `endedIfOpenedBy`. `rows` is the VALUES list or SELECT the new row
 * comes from; `countedWhen`, when given, lets the upsert count only if it holds (no row otherwise).
 */
function countInWindow(
  table: CounterTable,
  parameters: { rows: string; now: string; endedIfOpenedBy: string; countedWhen?: string },
): string {
  const { rows, now, endedIfOpenedBy, countedWhen } = parameters;
  return `INSERT INTO ${table.name} AS w (${table.key.join(', ')}, ${table.count}, window_started_at) ${rows}
    ON CONFLICT (${table.key.join(', ')}) DO UPDATE SET
      ${table.count} = CASE WHEN w.window_started_at <= ${endedIfOpenedBy} THEN 1 ELSE w.${table.count} + 1 END,
      window_started_at = CASE WHEN w.window_started_at <= ${endedIfOpenedBy} THEN ${now} ELSE w.window_started_at END
    ${countedWhen ? `WHERE ${countedWhen}` : ''}
    RETURNING ${table.count} AS count, window_started_at`;
}

/**
 * The upsert that takes one chat turn of a user: it counts only while the window holds fewer than
 * the limit (or in a new window) and returns a row when it did. The caller names the parameters,
 * so that a statement reading the turn's conversation can take the turn in the same round trip.
 */
export function takeChatTurnSql(parameters: {
  userId: string;
  now: string;
  endedIfOpenedBy: string;
  limit: string;
}): string {
  const { userId, now, endedIfOpenedBy, limit } = parameters;
  return countInWindow(COUNTER_TABLES['chat-turns'], {
    rows: `VALUES (${userId}, 1, ${now})`,
    now,
    endedIfOpenedBy,
    countedWhen: `w.window_started_at <= ${endedIfOpenedBy} OR w.turns < ${limit}`,
  });
}

function toWindowCount(row: CountRow): WindowCount {
  return { count: row.count, windowStartedAt: new Date(row.window_started_at) };
}

/**
 * Every query of the fixed-window limiters (the rate-limit guard, the login throttle, the chat
 * limiter): each keeps its counts in a table of its own, and counts with the same upsert.
 */
@Injectable()
export class WindowCountersRepository {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  private get manager() {
    return this.host.tx;
  }

  /**
   * Counts a request for its address and then, only when `sharedBucket` is given and the address
   * is within `addressLimit`, for all clients together: one address far over its own limit must
   * not use up everyone's. One statement; the shared count is null when it was not made.
   */
  async countRequest(
    addressBucket: string,
    sharedBucket: string | null,
    addressLimit: number,
    bounds: WindowBounds,
  ): Promise<{ address: WindowCount; shared: WindowCount | null }> {
    const table = COUNTER_TABLES['rate-limit-windows'];
    const rows: (CountRow & { shared: boolean })[] = await this.manager.query(
      `WITH address AS (
         ${countInWindow(table, { rows: 'VALUES ($1, 1, $3)', now: '$3', endedIfOpenedBy: '$4' })}
       ), everyone AS (
         ${countInWindow(table, {
           rows: 'SELECT $2, 1, $3 FROM address WHERE address.count <= $5 AND $6',
           now: '$3',
           endedIfOpenedBy: '$4',
         })}
       )
       SELECT false AS shared, * FROM address UNION ALL SELECT true AS shared, * FROM everyone`,
      [
        addressBucket,
        sharedBucket ?? '',
        bounds.now,
        bounds.endedIfOpenedBy,
        addressLimit,
        sharedBucket !== null,
      ],
    );
    const address = rows.find((row) => !row.shared);
    const shared = rows.find((row) => row.shared);
    if (!address) throw new Error('The address count returned no row');
    return { address: toWindowCount(address), shared: shared ? toWindowCount(shared) : null };
  }

  /** Counts one login attempt of (email, client IP). */
  async countLoginAttempt(email: string, clientIp: string, bounds: WindowBounds): Promise<WindowCount> {
    const [row]: CountRow[] = await this.manager.query(
      countInWindow(COUNTER_TABLES['login-attempts'], {
        rows: 'VALUES ($1, $2, 1, $3)',
        now: '$3',
        endedIfOpenedBy: '$4',
      }),
      [email, clientIp, bounds.now, bounds.endedIfOpenedBy],
    );
    return toWindowCount(row);
  }

  /** Takes back one counted login attempt of (email, client IP), never below zero. */
  async uncountLoginAttempt(email: string, clientIp: string): Promise<void> {
    await this.manager.query(
      `UPDATE login_attempts SET failures = failures - 1 WHERE email = $1 AND client_ip = $2 AND failures > 0`,
      [email, clientIp],
    );
  }

  /** Counts one chat turn of the user only while the window holds fewer than `limit`; whether it did. */
  async takeChatTurn(userId: number, limit: number, bounds: WindowBounds): Promise<boolean> {
    const taken: CountRow[] = await this.manager.query(
      takeChatTurnSql({ userId: '$1', now: '$2', endedIfOpenedBy: '$3', limit: '$4' }),
      [userId, bounds.now, bounds.endedIfOpenedBy, limit],
    );
    return taken.length > 0;
  }

  /** When the user's current chat window started, if there is one. */
  async chatWindowStartedAt(userId: number): Promise<Date | null> {
    const [row]: Pick<CountRow, 'window_started_at'>[] = await this.manager.query(
      `SELECT window_started_at FROM assistant_chat_turns WHERE user_id = $1`,
      [userId],
    );
    return row ? new Date(row.window_started_at) : null;
  }

  /** Deletes the counter's ended windows; how many. */
  async deleteEnded(counter: WindowCounter, { endedIfOpenedBy }: WindowBounds): Promise<number> {
    const [, removed] = (await this.manager.query(
      `DELETE FROM ${COUNTER_TABLES[counter].name} WHERE window_started_at <= $1`,
      [endedIfOpenedBy],
    )) as [unknown, number];
    return removed;
  }
}
