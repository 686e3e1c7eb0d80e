import type { Schemas } from '../../client';
import { TestUser } from '../factories/users.factory';
import { TestApp } from '../setup/test-app';
import { asCsv, dataOf, QueryOf, typedApi } from './typed-api';

/**
 * A user's portfolio reads, posted trades, recorded trades (answering the new transaction's id) and CSV imports
 * against a test app (each write must answer 201), all through the typed client. A read answers the
 * client's `{ response, data, error }` (`dataOf(await read.summary(user))`), its query type-checked.
 */
export function portfolioCalls(sut: () => TestApp) {
  const as = (user: TestUser) => typedApi(sut(), user);
  const postTransaction = (user: TestUser, body: Schemas['CreateTransactionDto']) =>
    as(user).POST('/api/v1/portfolio/transactions', { body });
  return {
    read: {
      overview: (user: TestUser, query?: QueryOf<'/api/v1/portfolio'>) =>
        as(user).GET('/api/v1/portfolio', { params: { query } }),
      positions: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/positions'>) =>
        as(user).GET('/api/v1/portfolio/positions', { params: { query } }),
      summary: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/summary'>) =>
        as(user).GET('/api/v1/portfolio/summary', { params: { query } }),
      transactions: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/transactions'>) =>
        as(user).GET('/api/v1/portfolio/transactions', { params: { query } }),
      revisions: (user: TestUser, id: number) =>
        as(user).GET('/api/v1/portfolio/transactions/{id}/history', { params: { path: { id } } }),
      lots: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/lots'>) =>
        as(user).GET('/api/v1/portfolio/lots', { params: { query } }),
      realized: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/realized'>) =>
        as(user).GET('/api/v1/portfolio/realized', { params: { query } }),
      history: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/history'>) =>
        as(user).GET('/api/v1/portfolio/history', { params: { query } }),
      income: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/income'>) =>
        as(user).GET('/api/v1/portfolio/income', { params: { query } }),
      riskMetrics: (user: TestUser, query?: QueryOf<'/api/v1/portfolio/risk-metrics'>) =>
        as(user).GET('/api/v1/portfolio/risk-metrics', { params: { query } }),
      settings: (user: TestUser) => as(user).GET('/api/v1/portfolio/settings'),
      accounts: (user: TestUser) => as(user).GET('/api/v1/portfolio/accounts'),
      account: (user: TestUser, id: number) =>
        as(user).GET('/api/v1/portfolio/accounts/{id}', { params: { path: { id } } }),
    },
    /** A trade as the route answers it, for a test that checks the status itself. */
    postTransaction,
    record: async (user: TestUser, body: Schemas['CreateTransactionDto']): Promise<number> => {
      const recorded = await postTransaction(user, body);
      expect(recorded.response.status).toBe(201);
      return dataOf(recorded).id;
    },
    importCsv: async (user: TestUser, csv: string) => {
      const imported = await as(user).POST('/api/v1/portfolio/transactions/import', { body: csv, ...asCsv });
      expect(imported.response.status).toBe(201);
    },
  };
}
