import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddAssistantConversationMessageCount1798400000000 implements MigrationInterface {
  name = 'AddAssistantConversationMessageCount1798400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The conversation row counts its messages, so that a turn takes its two positions by updating
    // that row (which waits for a concurrent turn's update and then sees its count) and stores
    // itself in one statement, instead of a transaction that locks, reads MAX(position) and inserts.
    await queryRunner.query(
      `ALTER TABLE assistant_conversations ADD COLUMN message_count integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`
      UPDATE assistant_conversations c
         SET message_count = counted.last
        FROM (SELECT conversation_id, MAX(position) AS last FROM assistant_messages GROUP BY conversation_id) counted
       WHERE counted.conversation_id = c.id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assistant_conversations DROP COLUMN message_count`);
  }
}
