import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AlertKind, AlertStatus, PORTFOLIO_TARGET, RearmPolicy } from './alert-fields';
import { AlertRule, AlertRuleChanges, AlertThresholds, NewAlertRule } from './alert-rule';

interface AlertRuleRow {
  id: number;
  user_id: number;
  kind: AlertKind;
  target: string | null;
  params: AlertThresholds;
  status: AlertStatus;
  rearm: RearmPolicy;
  rearm_minutes: number | null;
  arming: number;
  armed_at_ms: number;
  peak: number | null;
  baseline: number | null;
  triggered_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number | null;
}

/** A symbol's price and move since the previous close, as the database-side comparisons need them. */
export interface QuoteLevel {
  symbol: string;
  price: number;
  changePercent: number;
}

/** The sentiment of a news level over all the symbol's items. */
export const ANY_SENTIMENT = '*';

/** The newest item and the strongest absolute score of a symbol's news of one sentiment, or of all. */
export interface NewsLevel {
  symbol: string;
  sentiment: string;
  latestMs: number;
  strongestScore: number;
}

/** A user's watchlist: the largest absolute move since the previous close among its symbols. */
export interface WatchlistMove {
  userId: number;
  percent: number;
}

/**
 * What a pass knows before it reads a rule, for the database to compare the rules with: the quotes,
 * the news levels of the symbols news rules watch, the watchlists' moves and the users who hold a
 * ledger (the portfolio rules of the others cannot fire).
 */
export interface PassLevels {
  quotes: readonly QuoteLevel[];
  news: readonly NewsLevel[];
  watchlistMoves: readonly WatchlistMove[];
  ledgerOwners: readonly number[];
}

const QUOTE_KINDS = `'price_above', 'price_below', 'day_change', 'drawdown'`;

/** Rows by which the planner's estimate of the active rules may miss at any size (see refreshStaleStatistics). */
const STATISTICS_SLACK_ROWS = 1_000;

/** Relative slack of the database-side comparisons: a float rounding there must never hide a firing. */
const PREFILTER_MARGIN = 1e-9;

/** A timestamp as epoch milliseconds: pg's parsing of timestamps was the largest cost of a pass. */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::float8 AS ${column}_ms`;

const COLUMNS = `id, user_id, kind, target, params, status, rearm, rearm_minutes, arming, peak, baseline,
  ${['armed_at', 'triggered_at', 'created_at', 'updated_at'].map(epochMs).join(', ')}`;

const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

function toRule(row: AlertRuleRow): AlertRule {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    symbol: row.target,
    thresholds: row.params,
    status: row.status,
    rearm: row.rearm,
    rearmMinutes: row.rearm_minutes,
    arming: row.arming,
    armedAt: new Date(row.armed_at_ms),
    peak: row.peak,
    baseline: row.baseline,
    triggeredAt: dateOf(row.triggered_at_ms),
    createdAt: new Date(row.created_at_ms),
    updatedAt: dateOf(row.updated_at_ms),
  };
}

/** The rows an UPDATE or DELETE … RETURNING gave back (TypeORM answers those with [rows, count]). */
export function returnedRows<T>(result: unknown): T[] {
  const [rows] = result as [T[], number];
  return rows;
}

/** Persistence of alert rules. Every state change is one conditional statement, safe across replicas. */
@Injectable()
export class AlertRulesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Inserts the rule unless the user already has `limit` rules: the user's row is locked first, so
   * two concurrent creations cannot both pass the count. Null when the limit is reached.
   */
  async insert(userId: number, rule: NewAlertRule, now: Date, limit: number): Promise<AlertRule | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      const [{ count }] = (await manager.query(
        `SELECT count(*)::int AS count FROM alert_rules WHERE user_id = $1`,
        [userId],
      )) as { count: number }[];
      if (count >= limit) return null;
      const [row] = (await manager.query(
        `INSERT INTO alert_rules (user_id, kind, target, params, rearm, rearm_minutes, armed_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         RETURNING ${COLUMNS}`,
        [userId, rule.kind, rule.symbol, rule.thresholds, rule.rearm, rule.rearmMinutes, now],
      )) as AlertRuleRow[];
      return toRule(row);
    });
  }

  async list(userId: number, status?: AlertStatus): Promise<AlertRule[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM alert_rules
       WHERE user_id = $1 AND ($2::varchar IS NULL OR status = $2)
       ORDER BY id`,
      [userId, status ?? null],
    )) as AlertRuleRow[];
    return rows.map(toRule);
  }

  async find(userId: number, id: number): Promise<AlertRule | null> {
    const [row] = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM alert_rules WHERE user_id = $1 AND id = $2`,
      [userId, id],
    )) as AlertRuleRow[];
    return row ? toRule(row) : null;
  }

  /**
   * Applies the changes in one statement. `active` on a rule that is not active re-arms it (a new
   * arming from now, the running figures reset); null when the rule is not the user's.
   */
  async update(userId: number, id: number, changes: AlertRuleChanges, now: Date): Promise<AlertRule | null> {
    const [row] = returnedRows<AlertRuleRow>(
      await this.dataSource.query(
        `UPDATE alert_rules SET
         params = params || $3::jsonb,
         rearm = COALESCE($4::varchar, rearm),
         rearm_minutes = CASE WHEN $5::boolean THEN $6::integer ELSE rearm_minutes END,
         arming = CASE WHEN $7::varchar = 'active' AND status <> 'active' THEN arming + 1 ELSE arming END,
         armed_at = CASE WHEN $7::varchar = 'active' AND status <> 'active' THEN $8 ELSE armed_at END,
         peak = CASE WHEN $7::varchar = 'active' AND status <> 'active' THEN NULL ELSE peak END,
         baseline = CASE WHEN $7::varchar = 'active' AND status <> 'active' THEN NULL ELSE baseline END,
         status = COALESCE($7::varchar, status),
         updated_at = $8
       WHERE user_id = $1 AND id = $2
       RETURNING ${COLUMNS}`,
        [
          userId,
          id,
          changes.thresholds ?? {},
          changes.rearm ?? null,
          changes.rearmMinutes !== undefined,
          changes.rearmMinutes ?? null,
          changes.status ?? null,
          now,
        ],
      ),
    );
    return row ? toRule(row) : null;
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const deleted = returnedRows(
      await this.dataSource.query(`DELETE FROM alert_rules WHERE user_id = $1 AND id = $2 RETURNING id`, [
        userId,
        id,
      ]),
    );
    return deleted.length > 0;
  }

  /** The symbols the active price, day-change and drawdown rules watch: the quotes a pass reads. */
  activeQuoteTargets(): Promise<string[]> {
    // A skip scan over the partial index alert_rules_active_quote_targets: one probe per symbol.
    return this.distinctTargets(`status = 'active' AND kind IN (${QUOTE_KINDS}) AND target <> 'portfolio'`);
  }

  /** The symbols the active news rules watch: the news a pass reads before the rules. */
  activeNewsTargets(): Promise<string[]> {
    // A skip scan over the partial index alert_rules_active_news.
    return this.distinctTargets(`status = 'active' AND kind = 'news'`);
  }

  private async distinctTargets(watched: string): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `WITH RECURSIVE targets AS (
         SELECT min(target) AS target FROM alert_rules WHERE ${watched}
         UNION ALL
         SELECT (SELECT min(target) FROM alert_rules WHERE ${watched} AND target > targets.target)
         FROM targets WHERE targets.target IS NOT NULL
       )
       SELECT target FROM targets WHERE target IS NOT NULL`,
    )) as { target: string }[];
    return rows.map((row) => row.target);
  }

  /** The users with an active watchlist_move rule. */
  activeWatchlistUsers(): Promise<number[]> {
    return this.distinctUsers(`status = 'active' AND kind = 'watchlist_move'`);
  }

  /** The users with an active rule on their portfolio (day_change or drawdown on it, risk_level). */
  activePortfolioUsers(): Promise<number[]> {
    return this.distinctUsers(`status = 'active' AND (target = 'portfolio' OR kind = 'risk_level')`);
  }

  private async distinctUsers(watching: string): Promise<number[]> {
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT user_id FROM alert_rules WHERE ${watching}`,
    )) as { user_id: number }[];
    return rows.map((row) => row.user_id);
  }

  /**
   * Raises the running peak of every active drawdown rule on a symbol to its quote's price, in one
   * statement before the pass reads the rules, so the candidates query can compare the fall from it.
   */
  async raiseSymbolPeaks(quotes: readonly QuoteLevel[]): Promise<void> {
    if (quotes.length === 0) return;
    await this.dataSource.query(
      `UPDATE alert_rules r SET peak = q.price
       FROM unnest($1::text[], $2::float8[]) AS q(symbol, price)
       WHERE r.status = 'active' AND r.kind = 'drawdown' AND r.target <> 'portfolio' AND r.target = q.symbol
         AND (r.peak IS NULL OR r.peak < q.price)`,
      [quotes.map((quote) => quote.symbol), quotes.map((quote) => quote.price)],
    );
  }

  /**
   * Whether a pass has anything to do: a rule is active, or triggered with a policy that re-arms it.
   * Without one a pass would read and write nothing.
   */
  async anyToEvaluate(): Promise<boolean> {
    const [{ any }] = (await this.dataSource.query(
      `SELECT EXISTS (
         SELECT 1 FROM alert_rules WHERE status = 'active' OR (status = 'triggered' AND rearm <> 'never')
       ) AS any`,
    )) as { any: boolean }[];
    return any;
  }

  /** How many rules are active: those a pass evaluates, most of them in the database. */
  async activeCount(): Promise<number> {
    const [{ count }] = (await this.dataSource.query(
      `SELECT count(*)::int AS count FROM alert_rules WHERE status = 'active'`,
    )) as { count: number }[];
    return count;
  }

  /**
   * Analyses the table when the planner's estimate of the active rules is off by more than half of
   * their count: the candidates' plan relies on it, and after a bulk change of statuses (statistics
   * taken while most rules were paused) it probed every quote through the index on `status`, a 5 s
   * query at 100,000 rules, until autovacuum's next analysis. One EXPLAIN per pass otherwise.
   */
  async refreshStaleStatistics(activeCount: number): Promise<boolean> {
    const [{ 'QUERY PLAN': plans }] = (await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) SELECT id FROM alert_rules WHERE status = 'active'`,
    )) as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[];
    const estimate = plans[0].Plan['Plan Rows'];
    if (Math.abs(estimate - activeCount) <= STATISTICS_SLACK_ROWS + activeCount / 2) return false;
    await this.dataSource.query(`ANALYZE alert_rules`);
    return true;
  }

  /**
   * The next `limit` active rules after `afterId`, in id order, of those that could fire: every kind
   * but sentiment_shift is compared here, in the database, with what the pass read first
   * (`levels`), each through a partial index of its own, so a pass reads neither the rules that
   * cannot fire — most of them — nor, in the database, more than the index entries on the near
   * side of each threshold. Price and day-change rules meet the quotes, drawdown rules the fall
   * from the peaks raiseSymbolPeaks raised, news rules the newest item and strongest score of
   * their symbol and sentiment, watchlist rules the largest move on the user's list; portfolio
   * rules come back only for users who hold a ledger. The comparisons leave a margin on the side
   * of reading a rule: the checks in alert-checks.ts decide.
   */
  async candidatesAfter(afterId: number, limit: number, levels: PassLevels): Promise<AlertRule[]> {
    const live = `r.status = 'active' AND r.id > $1`;
    // The rules of one quote's symbol on its side of the threshold. OFFSET 0 keeps the planner from
    // flattening the subquery into a hash join over all of a kind's rules (it cannot tell how few
    // pass the threshold): each quote probes its kind's index (target, threshold) instead.
    const nearSide = (condition: string) =>
      `SELECT * FROM alert_rules r WHERE ${live} AND r.target = q.symbol AND ${condition} OFFSET 0`;
    const rows = (await this.dataSource.query(
      `WITH quotes AS (
         SELECT * FROM unnest($3::text[], $4::float8[], $5::float8[]) AS q(symbol, price, change_percent)
       ), news AS (
         SELECT * FROM unnest($7::text[], $8::text[], $9::float8[], $10::float8[])
           AS n(symbol, sentiment, latest_ms, strongest_score)
       ), movers AS (
         SELECT * FROM unnest($11::int[], $12::float8[]) AS m(user_id, move_percent)
       ), candidates AS (
         SELECT r.* FROM quotes q CROSS JOIN LATERAL (${nearSide(`r.kind = 'price_above'
           AND ((r.params->>'price')::float8) <= q.price * (1 + $6::float8)`)}) r
         UNION ALL
         SELECT r.* FROM quotes q CROSS JOIN LATERAL (${nearSide(`r.kind = 'price_below'
           AND ((r.params->>'price')::float8) >= q.price * (1 - $6::float8)`)}) r
         UNION ALL
         SELECT r.* FROM quotes q CROSS JOIN LATERAL (${nearSide(`r.kind = 'day_change'
           AND r.target <> '${PORTFOLIO_TARGET}'
           AND ((r.params->>'percent')::float8) <= abs(q.change_percent) * (1 + $6::float8)`)}) r
         UNION ALL
         SELECT r.* FROM quotes q CROSS JOIN LATERAL (${nearSide(`r.kind = 'drawdown'
           AND r.target <> '${PORTFOLIO_TARGET}' AND r.peak > 0
           AND (r.peak * (1 - (r.params->>'percent')::float8 / 100)) >= q.price * (1 - $6::float8)`)}) r
         UNION ALL
         SELECT r.* FROM news n JOIN alert_rules r ON r.target = n.symbol
         WHERE ${live} AND r.kind = 'news' AND r.armed_at < to_timestamp(n.latest_ms / 1000)
           AND COALESCE(r.params->>'sentiment', '${ANY_SENTIMENT}') = n.sentiment
           AND COALESCE((r.params->>'min_score')::float8, 0) * (1 - $6::float8) <= n.strongest_score
         UNION ALL
         SELECT r.* FROM movers m JOIN alert_rules r ON r.user_id = m.user_id
         WHERE ${live} AND r.kind = 'watchlist_move'
           AND (r.params->>'percent')::float8 * (1 - $6::float8) <= m.move_percent
         UNION ALL
         SELECT r.* FROM alert_rules r
         WHERE ${live} AND (r.target = '${PORTFOLIO_TARGET}' OR r.kind = 'risk_level') AND r.user_id = ANY($13::int[])
         UNION ALL
         SELECT r.* FROM alert_rules r WHERE ${live} AND r.kind = 'sentiment_shift'
       )
       SELECT ${COLUMNS} FROM candidates ORDER BY id LIMIT $2`,
      [
        afterId,
        limit,
        levels.quotes.map((quote) => quote.symbol),
        levels.quotes.map((quote) => quote.price),
        levels.quotes.map((quote) => quote.changePercent),
        PREFILTER_MARGIN,
        levels.news.map((level) => level.symbol),
        levels.news.map((level) => level.sentiment),
        levels.news.map((level) => level.latestMs),
        levels.news.map((level) => level.strongestScore),
        levels.watchlistMoves.map((move) => move.userId),
        levels.watchlistMoves.map((move) => move.percent),
        levels.ledgerOwners,
      ],
    )) as AlertRuleRow[];
    return rows.map(toRule);
  }

  /** Raises the running peaks of drawdown rules (one statement for many). */
  async raisePeaks(peaks: { id: number; arming: number; peak: number }[]): Promise<void> {
    if (peaks.length === 0) return;
    await this.dataSource.query(
      `UPDATE alert_rules r SET peak = GREATEST(COALESCE(r.peak, p.peak), p.peak)
       FROM unnest($1::int[], $2::int[], $3::float8[]) AS p(id, arming, peak)
       WHERE r.id = p.id AND r.arming = p.arming AND r.status = 'active'`,
      [peaks.map((p) => p.id), peaks.map((p) => p.arming), peaks.map((p) => p.peak)],
    );
  }

  /** Sets the baseline of a sentiment_shift rule armed without one. */
  async setBaseline(id: number, arming: number, baseline: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE alert_rules SET baseline = $3 WHERE id = $1 AND arming = $2 AND baseline IS NULL`,
      [id, arming, baseline],
    );
  }

  /**
   * Moves the rule from active to triggered for this arming, in the caller's transaction; false when
   * another evaluation (another replica, a retried job) got there first or the rule changed.
   */
  async markTriggered(manager: EntityManager, id: number, arming: number, now: Date): Promise<boolean> {
    const updated = returnedRows(
      await manager.query(
        `UPDATE alert_rules SET status = 'triggered', triggered_at = $3
         WHERE id = $1 AND arming = $2 AND status = 'active' RETURNING id`,
        [id, arming, now],
      ),
    );
    return updated.length > 0;
  }

  /**
   * Re-arms the triggered rules whose policy says so at `now`: after_minutes once that many minutes
   * have passed, next_session once a session opened after the trigger (`sessionOpenedAt`).
   */
  async rearmDue(now: Date, sessionOpenedAt: Date | null): Promise<number> {
    const rows = returnedRows(
      await this.dataSource.query(
        `UPDATE alert_rules SET status = 'active', arming = arming + 1, armed_at = $1, peak = NULL, baseline = NULL
       WHERE status = 'triggered' AND (
         (rearm = 'after_minutes' AND triggered_at + make_interval(mins => rearm_minutes) <= $1)
         OR (rearm = 'next_session' AND $2::timestamptz IS NOT NULL AND triggered_at < $2)
       )
       RETURNING id`,
        [now, sessionOpenedAt],
      ),
    );
    return rows.length;
  }
}
