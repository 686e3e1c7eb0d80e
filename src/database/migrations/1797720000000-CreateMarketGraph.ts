import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The market knowledge graph as a property graph: typed nodes, and typed, weighted, timestamped
 * edges indexed from both ends. An edge with an owner (HOLDS, WATCHES) belongs to that user and is
 * traversed only by that user's queries. One row records what has been built and how fresh it is.
 */
export class CreateMarketGraph1797720000000 implements MigrationInterface {
  name = 'CreateMarketGraph1797720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE graph_nodes (
        id bigserial PRIMARY KEY,
        kind varchar(16) NOT NULL
          CHECK (kind IN ('company', 'sector', 'sub_industry', 'location', 'index', 'news_item', 'user')),
        key varchar(512) NOT NULL,
        label varchar(512) NOT NULL,
        properties jsonb NOT NULL DEFAULT '{}',
        UNIQUE (kind, key)
      )`);
    await queryRunner.query(`
      CREATE TABLE graph_edges (
        source_id bigint NOT NULL REFERENCES graph_nodes (id) ON DELETE CASCADE,
        kind varchar(24) NOT NULL
          CHECK (kind IN ('IN_SUB_INDUSTRY', 'IN_SECTOR', 'HEADQUARTERED_IN', 'MEMBER_OF',
                          'CO_MOVES_WITH', 'MENTIONS', 'HOLDS', 'WATCHES')),
        target_id bigint NOT NULL REFERENCES graph_nodes (id) ON DELETE CASCADE,
        weight double precision NOT NULL DEFAULT 1,
        properties jsonb NOT NULL DEFAULT '{}',
        valid_from timestamptz NOT NULL,
        owner_user_id integer REFERENCES users (id) ON DELETE CASCADE,
        PRIMARY KEY (source_id, kind, target_id)
      )`);
    await queryRunner.query(`CREATE INDEX graph_edges_by_target ON graph_edges (target_id, kind, source_id)`);
    await queryRunner.query(
      `CREATE INDEX graph_edges_by_owner ON graph_edges (owner_user_id) WHERE owner_user_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX graph_edges_mentions_by_time ON graph_edges (valid_from) WHERE kind = 'MENTIONS'`,
    );
    await queryRunner.query(`
      CREATE TABLE graph_state (
        id smallint PRIMARY KEY CHECK (id = 1),
        built_at timestamptz NOT NULL,
        correlations_as_of date NOT NULL,
        news_through timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE graph_state`);
    await queryRunner.query(`DROP TABLE graph_edges`);
    await queryRunner.query(`DROP TABLE graph_nodes`);
  }
}
