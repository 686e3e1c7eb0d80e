import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AlertKind, AlertStatus, RearmPolicy } from './alert-fields';
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

/** A page of the active rules: how many it held, the last id, and those that could fire. */
export interface ActivePage {
  scanned: number;
  lastId: number | null;
  rules: AlertRule[];
}

const QUOTE_KINDS = `'price_above', 'price_below', 'day_change', 'drawdown'`;

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
  async activeQuoteTargets(): Promise<string[]> {
    // A skip scan over the partial index alert_rules_active_quote_targets: one probe per symbol.
    const watched = `status = 'active' AND kind IN (${QUOTE_KINDS}) AND target <> 'portfolio'`;
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

  /**
   * The next `limit` active rules after `afterId` in id order: how many there were and the last id,
   * and those of them that could fire. Price and symbol day-change rules are compared with `quotes`
   * here, in the database, so a pass never reads the rules no price reaches — most of them. The
   * comparison leaves a margin on the side of reading a rule: the checks in alert-checks.ts decide.
   */
  async activePage(afterId: number, limit: number, quotes: readonly QuoteLevel[]): Promise<ActivePage> {
    const rows = (await this.dataSource.query(
      `WITH page AS (
         SELECT ${COLUMNS} FROM alert_rules WHERE status = 'active' AND id > $1 ORDER BY id LIMIT $2
       ), quotes AS (
         SELECT * FROM unnest($3::text[], $4::float8[], $5::float8[]) AS q(symbol, price, change_percent)
       ), extent AS (
         SELECT count(*)::int AS scanned, max(id) AS last_id FROM page
       )
       SELECT extent.scanned, extent.last_id, candidate.*
       FROM extent LEFT JOIN LATERAL (
         SELECT page.* FROM page LEFT JOIN quotes ON quotes.symbol = page.target
         WHERE page.kind NOT IN ('price_above', 'price_below', 'day_change')
            OR page.target = 'portfolio'
            OR (page.kind = 'price_above' AND quotes.price >= (page.params->>'price')::float8 * (1 - $6::float8))
            OR (page.kind = 'price_below' AND quotes.price <= (page.params->>'price')::float8 * (1 + $6::float8))
            OR (page.kind = 'day_change' AND abs(quotes.change_percent) >= (page.params->>'percent')::float8 * (1 - $6::float8))
         ORDER BY page.id
       ) AS candidate ON true`,
      [
        afterId,
        limit,
        quotes.map((quote) => quote.symbol),
        quotes.map((quote) => quote.price),
        quotes.map((quote) => quote.changePercent),
        PREFILTER_MARGIN,
      ],
    )) as (Partial<AlertRuleRow> & { scanned: number; last_id: number | null })[];
    const [{ scanned, last_id: lastId }] = rows;
    const rules = rows.filter((row): row is AlertRuleRow & typeof row => row.id != null).map(toRule);
    return { scanned, lastId, rules };
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
