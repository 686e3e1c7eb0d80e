import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One partial index per kind the evaluation pass compares in the database: a pass reads through
 * them only the rules on the near side of their threshold, rather than every active rule. The
 * expressions are those of AlertRulesRepository.candidatesAfter, written the same way (the planner
 * matches an expression index by its text).
 */
const INDEXES: Record<string, string> = {
  alert_rules_active_price_above: `(target, ((params->>'price')::float8))
    WHERE status = 'active' AND kind = 'price_above'`,
  alert_rules_active_price_below: `(target, ((params->>'price')::float8))
    WHERE status = 'active' AND kind = 'price_below'`,
  alert_rules_active_day_change: `(target, ((params->>'percent')::float8))
    WHERE status = 'active' AND kind = 'day_change' AND target <> 'portfolio'`,
  alert_rules_active_drawdown: `(target, (peak * (1 - (params->>'percent')::float8 / 100)))
    WHERE status = 'active' AND kind = 'drawdown' AND target <> 'portfolio'`,
  alert_rules_active_news: `(target, armed_at) WHERE status = 'active' AND kind = 'news'`,
  alert_rules_active_watchlist_users: `(user_id) WHERE status = 'active' AND kind = 'watchlist_move'`,
  alert_rules_active_portfolio_users: `(user_id)
    WHERE status = 'active' AND (target = 'portfolio' OR kind = 'risk_level')`,
  alert_rules_active_sentiment_shift: `(id) WHERE status = 'active' AND kind = 'sentiment_shift'`,
};

export class IndexAlertRulePassFacts1798560000000 implements MigrationInterface {
  name = 'IndexAlertRulePassFacts1798560000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, definition] of Object.entries(INDEXES)) {
      await queryRunner.query(`CREATE INDEX ${name} ON alert_rules ${definition}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of Object.keys(INDEXES).reverse()) await queryRunner.query(`DROP INDEX ${name}`);
  }
}
