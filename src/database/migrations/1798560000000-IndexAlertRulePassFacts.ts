import { MigrationInterface, QueryRunner } from 'typeorm';

export class IndexAlertRulePassFacts1798560000000 implements MigrationInterface {
  name = 'IndexAlertRulePassFacts1798560000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // What a pass reads before the rules, so the page query can leave out those that cannot fire:
    // the symbols of the news rules (a skip scan), the users of the watchlist and portfolio rules.
    await queryRunner.query(
      `CREATE INDEX alert_rules_active_news_targets ON alert_rules (target)
       WHERE status = 'active' AND kind = 'news'`,
    );
    await queryRunner.query(
      `CREATE INDEX alert_rules_active_watchlist_users ON alert_rules (user_id)
       WHERE status = 'active' AND kind = 'watchlist_move'`,
    );
    await queryRunner.query(
      `CREATE INDEX alert_rules_active_portfolio_users ON alert_rules (user_id)
       WHERE status = 'active' AND (target = 'portfolio' OR kind = 'risk_level')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX alert_rules_active_portfolio_users`);
    await queryRunner.query(`DROP INDEX alert_rules_active_watchlist_users`);
    await queryRunner.query(`DROP INDEX alert_rules_active_news_targets`);
  }
}
