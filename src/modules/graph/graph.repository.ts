import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { CoMovingPair } from './analytics/correlations';
import type { CompanyRecord } from './company-directory';
import type { GraphNewsItem } from './graph.types';

/** Advisory lock namespace of graph maintenance (one builder or refresher across instances). */
export const GRAPH_LOCK = 28_0001;
/** The one index the shipped universe belongs to. */
export const SP500_INDEX = { key: '^GSPC', label: 'S&P 500' };

export interface GraphStateRow {
  builtAt: Date;
  correlationsAsOf: string;
  newsThrough: Date | null;
}

export interface HoldingEdgeRow {
  symbol: string;
  weight: number;
  quantity: number;
}

const EDGE_WRITE_BATCH = 1_000;

interface EdgeRows {
  sources: string[];
  targets: string[];
  weights: number[];
  properties: object[];
}

/** A company reached by a walk, with the node it was reached through. */
export interface ReachedCompany {
  startSymbol: string;
  symbol: string;
  name: string;
  depth: number;
  viaKind: string | null;
  viaLabel: string | null;
  edgeKinds: string[];
  weight: number;
}

export interface CoMentionRow {
  symbol: string;
  name: string;
  items: number;
  total: number;
}

export interface IndirectNewsRow {
  url: string;
  title: string;
  publishedAt: Date;
  sentiment: string;
  sentimentScore: number;
  symbol: string;
  holding: string;
  viaKind: string | null;
  viaLabel: string | null;
  correlation: number;
}

/**
 * Bounded-depth walk over the graph from the start nodes ($1) along the edge kinds ($2), both ways,
 * to depth $3, as user $4 sees it: an edge with an owner is followed only by its owner's queries. A
 * company reached past the start ends its path (the graph links companies through categories and
 * co-movement, never company to company to company), and no path visits a node twice.
 * CO_MOVES_WITH is stored once per direction, so it is followed forwards only.
 */
const WALK_CTE = `
  WITH RECURSIVE walk (node_id, node_kind, depth, start_id, via_id, kinds, visited, weight) AS (
    SELECT n.id, n.kind, 0, n.id, NULL::bigint, ARRAY[]::text[], ARRAY[n.id], 1::float8
      FROM graph_nodes n WHERE n.id = ANY($1::bigint[])
    UNION ALL
    SELECT step.node_id, step.node_kind, walk.depth + 1, walk.start_id,
           CASE WHEN walk.depth = 0 THEN step.node_id ELSE walk.via_id END,
           walk.kinds || step.kind, walk.visited || step.node_id, walk.weight * step.weight
      FROM walk
      CROSS JOIN LATERAL (
        SELECT e.target_id AS node_id, t.kind AS node_kind, e.kind::text AS kind, e.weight
          FROM graph_edges e JOIN graph_nodes t ON t.id = e.target_id
         WHERE e.source_id = walk.node_id AND e.kind = ANY($2::text[])
           AND (e.owner_user_id IS NULL OR e.owner_user_id = $4)
        UNION ALL
        SELECT e.source_id, s.kind, e.kind::text, e.weight
          FROM graph_edges e JOIN graph_nodes s ON s.id = e.source_id
         WHERE e.target_id = walk.node_id AND e.kind = ANY($2::text[]) AND e.kind <> 'CO_MOVES_WITH'
           AND (e.owner_user_id IS NULL OR e.owner_user_id = $4)
      ) step
     WHERE walk.depth < $3
       AND (walk.depth = 0 OR walk.node_kind <> 'company')
       AND NOT step.node_id = ANY(walk.visited)
  )`;

/** Every SQL statement of the graph: its tables are graph_nodes, graph_edges and graph_state. */
@Injectable()
export class GraphRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async state(): Promise<GraphStateRow | null> {
    const [row] = (await this.dataSource.query(
      `SELECT built_at, to_char(correlations_as_of, 'YYYY-MM-DD') AS correlations_as_of, news_through
         FROM graph_state WHERE id = 1`,
    )) as { built_at: Date; correlations_as_of: string; news_through: Date | null }[];
    return row
      ? { builtAt: row.built_at, correlationsAsOf: row.correlations_as_of, newsThrough: row.news_through }
      : null;
  }

  /**
   * Runs `work` holding the graph's maintenance lock in one transaction, with the state as it
   * stands once the lock is held (another instance may just have built or refreshed).
   */
  async maintain<T>(work: (state: GraphStateRow | null, writer: GraphWriter) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [GRAPH_LOCK]);
      const [row] = (await manager.query(
        `SELECT built_at, to_char(correlations_as_of, 'YYYY-MM-DD') AS correlations_as_of, news_through
           FROM graph_state WHERE id = 1`,
      )) as { built_at: Date; correlations_as_of: string; news_through: Date | null }[];
      const state = row
        ? { builtAt: row.built_at, correlationsAsOf: row.correlations_as_of, newsThrough: row.news_through }
        : null;
      return work(state, new GraphWriter(manager));
    });
  }

  /** The graph's own unit of work, for a change of one user's edges. */
  changeUser<T>(work: (writer: GraphWriter) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new GraphWriter(manager)));
  }

  /**
   * Companies reached from `symbols` by a walk of at most `depth` steps along `kinds` (see
   * WALK_CTE), one row per path, with the product of its edge weights.
   */
  async reachedCompanies(
    symbols: readonly string[],
    kinds: readonly string[],
    depth: number,
    viewerUserId: number | null,
  ): Promise<ReachedCompany[]> {
    const rows = (await this.dataSource.query(
      `${WALK_CTE}
       SELECT start.key AS start_symbol, reached.key AS symbol, reached.label AS name, walk.depth,
              via.kind AS via_kind, via.label AS via_label, walk.kinds AS edge_kinds, walk.weight
         FROM walk
         JOIN graph_nodes reached ON reached.id = walk.node_id
         JOIN graph_nodes start ON start.id = walk.start_id
         LEFT JOIN graph_nodes via ON via.id = walk.via_id AND walk.depth > 1
        WHERE walk.depth > 0 AND reached.kind = 'company' AND walk.node_id <> walk.start_id`,
      [await this.companyIds(symbols), kinds, depth, viewerUserId ?? -1],
    )) as {
      start_symbol: string;
      symbol: string;
      name: string;
      depth: number;
      via_kind: string | null;
      via_label: string | null;
      edge_kinds: string[];
      weight: number;
    }[];
    return rows.map((row) => ({
      startSymbol: row.start_symbol,
      symbol: row.symbol,
      name: row.name,
      depth: row.depth,
      viaKind: row.via_kind,
      viaLabel: row.via_label,
      edgeKinds: row.edge_kinds,
      weight: row.weight,
    }));
  }

  /**
   * Every node kind and key a walk from `symbols` along every edge kind reaches within `depth`,
   * as user `viewerUserId` sees the graph.
   */
  async reachableNodes(
    symbols: readonly string[],
    depth: number,
    viewerUserId: number,
  ): Promise<{ kind: string; key: string }[]> {
    return (await this.dataSource.query(
      `${WALK_CTE}
       SELECT DISTINCT n.kind, n.key FROM walk JOIN graph_nodes n ON n.id = walk.node_id`,
      [
        await this.companyIds(symbols),
        ['IN_SUB_INDUSTRY', 'IN_SECTOR', 'HEADQUARTERED_IN', 'MEMBER_OF', 'MENTIONS', 'HOLDS', 'WATCHES'],
        depth,
        viewerUserId,
      ],
    )) as { kind: string; key: string }[];
  }

  /** Companies mentioned in the same items as `symbol` since `since`, with how many items each. */
  async coMentioned(symbol: string, since: Date, limit: number): Promise<CoMentionRow[]> {
    const rows = (await this.dataSource.query(
      `WITH mine AS (
         SELECT m.source_id AS item_id
           FROM graph_edges m JOIN graph_nodes c ON c.id = m.target_id
          WHERE c.kind = 'company' AND c.key = $1 AND m.kind = 'MENTIONS' AND m.valid_from >= $2)
       SELECT other.key AS symbol, other.label AS name, count(*)::int AS items,
              (SELECT count(*) FROM mine)::int AS total
         FROM mine
         JOIN graph_edges m ON m.source_id = mine.item_id AND m.kind = 'MENTIONS'
         JOIN graph_nodes other ON other.id = m.target_id AND other.key <> $1
        GROUP BY other.key, other.label
        ORDER BY items DESC, other.key
        LIMIT $3`,
      [symbol, since, limit],
    )) as CoMentionRow[];
    return rows;
  }

  /** The user's holdings as the graph holds them (only their own HOLDS edges). */
  async holdings(userId: number): Promise<HoldingEdgeRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT c.key AS symbol, e.weight, (e.properties->>'quantity')::float8 AS quantity
         FROM graph_nodes u
         JOIN graph_edges e ON e.source_id = u.id AND e.kind = 'HOLDS' AND e.owner_user_id = $1
         JOIN graph_nodes c ON c.id = e.target_id
        WHERE u.kind = 'user' AND u.key = $2
        ORDER BY e.weight DESC, c.key`,
      [userId, String(userId)],
    )) as HoldingEdgeRow[];
    return rows;
  }

  /**
   * What the user's edges were last written from: the ledger version of the HOLDS edges and the
   * watchlist of the WATCHES edges (null when never written).
   */
  async userSources(userId: number): Promise<{ ledgerVersion: number | null; watchlist: string[] | null }> {
    const [row] = (await this.dataSource.query(
      `SELECT (properties->>'ledger_version')::int AS version, properties->'watchlist' AS watchlist
         FROM graph_nodes WHERE kind = 'user' AND key = $1`,
      [String(userId)],
    )) as { version: number | null; watchlist: string[] | null }[];
    return { ledgerVersion: row?.version ?? null, watchlist: row?.watchlist ?? null };
  }

  /** The CO_MOVES_WITH edges between the given companies, each pair once (a < b). */
  async coMovementAmong(symbols: readonly string[]): Promise<CoMovingPair[]> {
    if (symbols.length < 2) return [];
    return (await this.dataSource.query(
      `SELECT a.key AS a, b.key AS b, e.weight AS correlation
         FROM graph_nodes a
         JOIN graph_edges e ON e.source_id = a.id AND e.kind = 'CO_MOVES_WITH'
         JOIN graph_nodes b ON b.id = e.target_id
        WHERE a.kind = 'company' AND a.key = ANY($1::text[]) AND b.key = ANY($1::text[]) AND a.key < b.key`,
      [symbols],
    )) as CoMovingPair[];
  }

  /**
   * Items published since `since` about a company one hop from one of the `held` companies (the
   * same sub-industry, or co-moving) that mention none of them, newest first, each through its
   * strongest path (of equal ones, the first holding's, then the first company's, by symbol), as
   * user `userId` sees the graph.
   */
  async indirectNews(
    userId: number,
    held: readonly string[],
    since: Date,
    limit: number,
  ): Promise<IndirectNewsRow[]> {
    if (held.length === 0) return [];
    const rows = (await this.dataSource.query(
      `${WALK_CTE},
       neighbours AS (
         SELECT walk.start_id, walk.node_id, walk.via_id, walk.weight
           FROM walk
          WHERE walk.node_kind = 'company' AND walk.depth > 0 AND NOT walk.node_id = ANY($1::bigint[])
            AND (walk.kinds = ARRAY['CO_MOVES_WITH'] OR walk.kinds = ARRAY['IN_SUB_INDUSTRY', 'IN_SUB_INDUSTRY']))
       SELECT * FROM (
       SELECT DISTINCT ON (m.valid_from, item.key)
              item.key AS url, item.label AS title, m.valid_from AS published_at,
              item.properties->>'sentiment' AS sentiment,
              (item.properties->>'sentiment_score')::float8 AS sentiment_score,
              about.key AS symbol, holding.key AS holding, via.kind AS via_kind, via.label AS via_label,
              CASE WHEN via.id IS NULL THEN neighbours.weight ELSE NULL END AS correlation,
              neighbours.weight AS strength
         FROM neighbours
         JOIN graph_edges m ON m.target_id = neighbours.node_id AND m.kind = 'MENTIONS' AND m.valid_from >= $5
         JOIN graph_nodes item ON item.id = m.source_id
         JOIN graph_nodes about ON about.id = neighbours.node_id
         JOIN graph_nodes holding ON holding.id = neighbours.start_id
         LEFT JOIN graph_nodes via ON via.id = neighbours.via_id AND via.kind <> 'company'
        WHERE NOT EXISTS (
          SELECT 1 FROM graph_edges direct
           WHERE direct.source_id = item.id AND direct.kind = 'MENTIONS' AND direct.target_id = ANY($1::bigint[]))
        ORDER BY m.valid_from DESC, item.key, neighbours.weight DESC, holding.key, about.key) AS strongest
        ORDER BY published_at DESC, strength DESC, url
        LIMIT $6`,
      [await this.companyIds(held), ['CO_MOVES_WITH', 'IN_SUB_INDUSTRY'], 2, userId, since, limit],
    )) as {
      url: string;
      title: string;
      published_at: Date;
      sentiment: string;
      sentiment_score: number;
      symbol: string;
      holding: string;
      via_kind: string | null;
      via_label: string | null;
      correlation: number | null;
    }[];
    return rows.map((row) => ({
      url: row.url,
      title: row.title,
      publishedAt: row.published_at,
      sentiment: row.sentiment,
      sentimentScore: row.sentiment_score,
      symbol: row.symbol,
      holding: row.holding,
      viaKind: row.via_kind,
      viaLabel: row.via_label,
      correlation: row.correlation ?? 0,
    }));
  }

  private async companyIds(symbols: readonly string[]): Promise<string[]> {
    if (symbols.length === 0) return [];
    const rows = (await this.dataSource.query(
      `SELECT id FROM graph_nodes WHERE kind = 'company' AND key = ANY($1::text[])`,
      [symbols],
    )) as { id: string }[];
    return rows.map(({ id }) => id);
  }
}

/** The graph's writes, inside one transaction. */
export class GraphWriter {
  constructor(private readonly manager: EntityManager) {}

  /** The reference part of the graph: companies, their categories and the index. */
  async writeReference(companies: readonly CompanyRecord[], at: Date): Promise<void> {
    const nodes: { kind: string; key: string; label: string; properties: object }[] = [
      { kind: 'index', key: SP500_INDEX.key, label: SP500_INDEX.label, properties: {} },
    ];
    const seen = new Set<string>();
    const category = (kind: string, label: string) => {
      if (seen.has(`${kind}:${label}`)) return;
      seen.add(`${kind}:${label}`);
      nodes.push({ kind, key: label, label, properties: {} });
    };
    for (const company of companies) {
      nodes.push({
        kind: 'company',
        key: company.symbol,
        label: company.name,
        properties: {
          cik: company.cik,
          founded: company.founded,
          date_added: company.dateAdded,
        },
      });
      category('sector', company.sector);
      if (company.subIndustry) category('sub_industry', company.subIndustry);
      if (company.headquarters) category('location', company.headquarters);
    }
    await this.upsertNodes(nodes);
    const edges = (
      pick: (company: CompanyRecord) => string | null,
      properties = (_: CompanyRecord) => ({}),
    ) => {
      const rows: EdgeRows = { sources: [], targets: [], weights: [], properties: [] };
      for (const company of companies) {
        const target = pick(company);
        if (!target) continue;
        rows.sources.push(company.symbol);
        rows.targets.push(target);
        rows.weights.push(1);
        rows.properties.push(properties(company));
      }
      return rows;
    };
    await this.upsertEdges(
      'IN_SECTOR',
      'company',
      'sector',
      edges((c) => c.sector),
      at,
    );
    await this.upsertEdges(
      'IN_SUB_INDUSTRY',
      'company',
      'sub_industry',
      edges((c) => c.subIndustry),
      at,
    );
    await this.upsertEdges(
      'HEADQUARTERED_IN',
      'company',
      'location',
      edges((c) => c.headquarters),
      at,
    );
    await this.upsertEdges(
      'MEMBER_OF',
      'company',
      'index',
      edges(
        () => SP500_INDEX.key,
        (c) => ({ date_added: c.dateAdded }),
      ),
      at,
    );
  }

  /**
   * Makes the CO_MOVES_WITH edges those of `pairs` (each stored in both directions): new pairs
   * are added, existing ones updated, pairs no longer co-moving removed.
   */
  async replaceCorrelations(pairs: readonly CoMovingPair[], asOf: string, windowDays: number): Promise<void> {
    const rows: EdgeRows = { sources: [], targets: [], weights: [], properties: [] };
    for (const { a, b, correlation } of pairs) {
      const properties = { correlation, window_days: windowDays, as_of: asOf };
      rows.sources.push(a, b);
      rows.targets.push(b, a);
      rows.weights.push(correlation, correlation);
      rows.properties.push(properties, properties);
    }
    const at = new Date(`${asOf}T21:00:00Z`);
    await this.upsertEdges('CO_MOVES_WITH', 'company', 'company', rows, at);
    await this.manager.query(`DELETE FROM graph_edges WHERE kind = 'CO_MOVES_WITH' AND valid_from < $1`, [
      at,
    ]);
  }

  /** Adds news items and their MENTIONS edges (an item already there is left as is). */
  async addNews(items: readonly GraphNewsItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.upsertNodes(
      items.map((item) => ({
        kind: 'news_item',
        key: item.url,
        label: item.title,
        properties: {
          published_at: item.publishedAt,
          sentiment: item.sentiment,
          sentiment_score: item.sentimentScore,
        },
      })),
    );
    const [itemIds, companyIds] = await Promise.all([
      this.keyedIds(
        'news_item',
        items.map(({ url }) => url),
      ),
      this.nodeIds('company'),
    ]);
    const mentions = items.flatMap((item) =>
      item.symbols
        .filter((symbol) => companyIds.has(symbol) && itemIds.has(item.url))
        .map((symbol) => ({ item, company: companyIds.get(symbol)! })),
    );
    await this.manager.query(
      `INSERT INTO graph_edges (source_id, kind, target_id, weight, properties, valid_from)
       SELECT x.item_id, 'MENTIONS', x.company_id, 1,
              jsonb_build_object('sentiment', x.sentiment, 'published_at', x.published_at), x.published_at
         FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[])
              AS x(item_id, company_id, sentiment, published_at)
       ON CONFLICT (source_id, kind, target_id) DO NOTHING`,
      [
        mentions.map(({ item }) => itemIds.get(item.url)),
        mentions.map(({ company }) => company),
        mentions.map(({ item }) => item.sentiment),
        mentions.map(({ item }) => item.publishedAt),
      ],
    );
  }

  /**
   * Refreshes the planner's statistics of the graph's tables after a bulk write: without them a
   * walk's joins are planned for the empty tables of before the build.
   */
  async analyze(): Promise<void> {
    await this.manager.query('ANALYZE graph_nodes, graph_edges');
  }

  /** Forgets news items published before `before` (their edges go with them). */
  async pruneNews(before: Date): Promise<void> {
    await this.manager.query(
      `DELETE FROM graph_nodes WHERE kind = 'news_item' AND (properties->>'published_at')::timestamptz < $1`,
      [before],
    );
  }

  async writeState(state: { builtAt: Date; correlationsAsOf: string }): Promise<void> {
    await this.manager.query(
      `INSERT INTO graph_state (id, built_at, correlations_as_of) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET correlations_as_of = EXCLUDED.correlations_as_of`,
      [state.builtAt, state.correlationsAsOf],
    );
  }

  /** Records that the news items published up to `through` are in the graph. */
  async writeNewsThrough(through: Date): Promise<void> {
    await this.manager.query(
      `UPDATE graph_state SET news_through = greatest(news_through, $1) WHERE id = 1`,
      [through],
    );
  }

  /**
   * Makes the user's HOLDS edges exactly `holdings` (weights of the holdings' value, with the
   * quantities they came from), recording the ledger version they reflect; null keeps the version
   * recorded (the same holdings weighed again). Nothing is written when edges of that version or a
   * later one are recorded: the writes that follow two trades may land in either order, and the
   * earlier trade's must not undo the later's.
   */
  async replaceHoldings(
    userId: number,
    holdings: readonly HoldingEdgeRow[],
    ledgerVersion: number | null,
    at: Date,
  ): Promise<void> {
    if (!(await this.upsertUser(userId, ledgerVersion === null ? {} : { ledger_version: ledgerVersion })))
      return;
    await this.replaceOwnedEdges(
      userId,
      'HOLDS',
      holdings.map(({ symbol, weight, quantity }) => ({ symbol, weight, properties: { weight, quantity } })),
      at,
    );
  }

  /** Makes the user's WATCHES edges exactly the companies of `symbols` in the graph. */
  async replaceWatchlist(userId: number, symbols: readonly string[], at: Date): Promise<void> {
    await this.upsertUser(userId, { watchlist: symbols });
    await this.replaceOwnedEdges(
      userId,
      'WATCHES',
      symbols.map((symbol) => ({ symbol, weight: 1, properties: {} })),
      at,
    );
  }

  /**
   * Every user's holdings, to weigh them again at a new close. The users' nodes are locked first,
   * until the transaction ends: a change of a user's holdings committed between this read and the
   * rewrite would be undone by it.
   */
  async allHoldings(): Promise<{ userId: number; symbol: string; quantity: number }[]> {
    await this.manager.query(
      `SELECT count(*) FROM (SELECT 1 FROM graph_nodes WHERE kind = 'user' FOR UPDATE) AS locked`,
    );
    return (await this.manager.query(
      `SELECT e.owner_user_id AS "userId", c.key AS symbol, (e.properties->>'quantity')::float8 AS quantity
         FROM graph_edges e JOIN graph_nodes c ON c.id = e.target_id
        WHERE e.kind = 'HOLDS'`,
    )) as { userId: number; symbol: string; quantity: number }[];
  }

  /**
   * Adds `properties` to the user's node, which stays locked until the transaction ends (so one
   * change of the user's edges runs at a time), unless they carry a `ledger_version` no later than
   * the one recorded. Answers whether it wrote.
   */
  private async upsertUser(userId: number, properties: object): Promise<boolean> {
    const written = (await this.manager.query(
      `INSERT INTO graph_nodes (kind, key, label, properties) VALUES ('user', $1, $1, $2)
       ON CONFLICT (kind, key) DO UPDATE SET properties = graph_nodes.properties || EXCLUDED.properties
        WHERE NOT coalesce(
          (graph_nodes.properties->>'ledger_version')::int >= (EXCLUDED.properties->>'ledger_version')::int, false)
       RETURNING id`,
      [String(userId), properties],
    )) as { id: string }[];
    return written.length > 0;
  }

  private async replaceOwnedEdges(
    userId: number,
    kind: 'HOLDS' | 'WATCHES',
    edges: readonly { symbol: string; weight: number; properties: object }[],
    at: Date,
  ): Promise<void> {
    await this.manager.query(
      `DELETE FROM graph_edges e USING graph_nodes c
        WHERE e.kind = $1 AND e.owner_user_id = $2 AND c.id = e.target_id AND NOT c.key = ANY($3::text[])`,
      [kind, userId, edges.map(({ symbol }) => symbol)],
    );
    await this.manager.query(
      `INSERT INTO graph_edges (source_id, kind, target_id, weight, properties, valid_from, owner_user_id)
       SELECT u.id, $1, c.id, x.weight, x.properties, $6, $2
         FROM unnest($3::text[], $4::float8[], $5::jsonb[]) AS x(symbol, weight, properties)
         JOIN graph_nodes u ON u.kind = 'user' AND u.key = $7
         JOIN graph_nodes c ON c.kind = 'company' AND c.key = x.symbol
       ON CONFLICT (source_id, kind, target_id) DO UPDATE
         SET weight = EXCLUDED.weight, properties = EXCLUDED.properties, valid_from = EXCLUDED.valid_from`,
      [
        kind,
        userId,
        edges.map(({ symbol }) => symbol),
        edges.map(({ weight }) => weight),
        edges.map(({ properties }) => JSON.stringify(properties)),
        at,
        String(userId),
      ],
    );
  }

  private async upsertNodes(
    nodes: readonly { kind: string; key: string; label: string; properties: object }[],
  ) {
    await this.manager.query(
      `INSERT INTO graph_nodes (kind, key, label, properties)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
       ON CONFLICT (kind, key) DO UPDATE SET label = EXCLUDED.label, properties = EXCLUDED.properties`,
      [
        nodes.map(({ kind }) => kind),
        nodes.map(({ key }) => key),
        nodes.map(({ label }) => label),
        nodes.map(({ properties }) => JSON.stringify(properties)),
      ],
    );
  }

  /**
   * Inserts or updates edges between nodes named by key. The keys are resolved to ids first: nodes
   * written in the same transaction have no planner statistics yet, and a join on them would be
   * planned as a scan per edge.
   */
  private async upsertEdges(
    kind: string,
    sourceKind: string,
    targetKind: string,
    rows: EdgeRows,
    at: Date,
  ): Promise<void> {
    const [sourceIds, targetIds] = await Promise.all([this.nodeIds(sourceKind), this.nodeIds(targetKind)]);
    const keep = rows.sources.map(
      (source, index) => sourceIds.has(source) && targetIds.has(rows.targets[index]),
    );
    const kept = <T>(values: T[]) => values.filter((_, index) => keep[index]);
    const sources = kept(rows.sources).map((key) => sourceIds.get(key));
    const targets = kept(rows.targets).map((key) => targetIds.get(key));
    const weights = kept(rows.weights);
    const properties = kept(rows.properties).map((edge) => JSON.stringify(edge));
    // In batches: one statement for every co-moving pair outlasted the statement timeout on a busy server.
    for (let start = 0; start < sources.length; start += EDGE_WRITE_BATCH) {
      const end = start + EDGE_WRITE_BATCH;
      await this.manager.query(
        `INSERT INTO graph_edges (source_id, kind, target_id, weight, properties, valid_from)
         SELECT x.source_id, $1, x.target_id, x.weight, x.properties, $6
           FROM unnest($2::bigint[], $3::bigint[], $4::float8[], $5::jsonb[]) AS x(source_id, target_id, weight, properties)
         ON CONFLICT (source_id, kind, target_id) DO UPDATE
           SET weight = EXCLUDED.weight, properties = EXCLUDED.properties, valid_from = EXCLUDED.valid_from`,
        [
          kind,
          sources.slice(start, end),
          targets.slice(start, end),
          weights.slice(start, end),
          properties.slice(start, end),
          at,
        ],
      );
    }
  }

  private async keyedIds(kind: string, keys: readonly string[]): Promise<Map<string, string>> {
    const rows = (await this.manager.query(
      `SELECT id, key FROM graph_nodes WHERE kind = $1 AND key = ANY($2::text[])`,
      [kind, keys],
    )) as { id: string; key: string }[];
    return new Map(rows.map(({ id, key }) => [key, id]));
  }

  private async nodeIds(kind: string): Promise<Map<string, string>> {
    const rows = (await this.manager.query(`SELECT id, key FROM graph_nodes WHERE kind = $1`, [kind])) as {
      id: string;
      key: string;
    }[];
    return new Map(rows.map(({ id, key }) => [key, id]));
  }
}
