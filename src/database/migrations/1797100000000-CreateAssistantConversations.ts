import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAssistantConversations1797100000000 implements MigrationInterface {
  name = 'CreateAssistantConversations1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assistant_conversations (
        id uuid PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title varchar(120) NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX assistant_conversations_user_updated_idx ON assistant_conversations (user_id, updated_at DESC, id)`,
    );
    await queryRunner.query(`
      CREATE TABLE assistant_messages (
        id uuid PRIMARY KEY,
        conversation_id uuid NOT NULL REFERENCES assistant_conversations (id) ON DELETE CASCADE,
        position integer NOT NULL,
        role varchar(16) NOT NULL,
        content text NOT NULL,
        sources jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT assistant_messages_position_key UNIQUE (conversation_id, position)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assistant_messages`);
    await queryRunner.query(`DROP TABLE assistant_conversations`);
  }
}
