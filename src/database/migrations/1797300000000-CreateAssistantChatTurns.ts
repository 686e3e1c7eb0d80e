import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAssistantChatTurns1797300000000 implements MigrationInterface {
  name = 'CreateAssistantChatTurns1797300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Unlogged: a counter that lives for a minute needs no crash safety, and a commit that touched
    // only unlogged tables does not wait for a WAL flush — the limit costs a chat turn no fsync.
    await queryRunner.query(`
      CREATE UNLOGGED TABLE assistant_chat_turns (
        user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        turns integer NOT NULL,
        window_started_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX assistant_chat_turns_window_idx ON assistant_chat_turns (window_started_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assistant_chat_turns`);
  }
}
