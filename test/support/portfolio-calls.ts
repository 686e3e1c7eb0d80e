import type { Schemas } from '../../client';
import { TestUser } from '../factories/users.factory';
import { TestApp } from '../setup/test-app';
import { asCsv, dataOf, typedApi } from './typed-api';

const BASE = '/api/v1/portfolio';

/**
 * A user's portfolio reads, recorded trades (answering the new transaction's id) and CSV imports
 * against a test app (each write must answer 201). The writes go through the typed client; `get`
 * stays a raw `inject()` by path, for the suites that read many routes the same way.
 */
export function portfolioCalls(sut: () => TestApp) {
  return {
    get: (user: TestUser, path: string) => sut().inject({ url: `${BASE}/${path}`, headers: user.headers }),
    record: async (user: TestUser, body: Schemas['CreateTransactionDto']): Promise<number> => {
      const recorded = await typedApi(sut(), user).POST('/api/v1/portfolio/transactions', { body });
      expect(recorded.response.status).toBe(201);
      return dataOf(recorded).id;
    },
    importCsv: async (user: TestUser, csv: string) => {
      const imported = await typedApi(sut(), user).POST('/api/v1/portfolio/transactions/import', {
        body: csv,
        ...asCsv,
      });
      expect(imported.response.status).toBe(201);
    },
  };
}
