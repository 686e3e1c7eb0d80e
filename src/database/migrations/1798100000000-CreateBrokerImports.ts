import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What makes a broker import safe to repeat and to preview: the key of every broker transaction
 * recorded (its id at the broker, or a fingerprint of its row), tied to the ledger entry it became
 * (deleting the entry frees the key); and the previews a dry run answers, each recorded as it was
 * shown when committed with its token.
 */
export class CreateBrokerImports1798100000000 implements MigrationInterface {
  name = 'CreateBrokerImports1798100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE portfolio_import_keys (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        import_key varchar(96) NOT NULL,
        transaction_id integer NOT NULL REFERENCES portfolio_transactions (id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, import_key)
      )`);
    await queryRunner.query(
      `CREATE INDEX portfolio_import_keys_transaction_id ON portfolio_import_keys (transaction_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE portfolio_import_previews (
        token uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        entries jsonb NOT NULL,
        answer jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX portfolio_import_previews_user_id ON portfolio_import_previews (user_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE portfolio_import_previews`);
    await queryRunner.query(`DROP TABLE portfolio_import_keys`);
  }
}
