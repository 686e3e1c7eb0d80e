import { TestUser } from '../factories/users.factory';
import { TestApp } from '../setup/test-app';

const BASE = '/api/v1/portfolio';

/**
 * A user's portfolio reads, recorded trades (answering the new transaction's id) and CSV imports
 * against a test app (each write must answer 201).
 */
export function portfolioCalls(sut: () => TestApp) {
  return {
    get: (user: TestUser, path: string) => sut().inject({ url: `${BASE}/${path}`, headers: user.headers }),
    record: async (user: TestUser, payload: object): Promise<number> => {
      const response = await sut().inject({
        method: 'POST',
        url: `${BASE}/transactions`,
        headers: user.headers,
        payload,
      });
      expect(response.statusCode).toBe(201);
      return (response.json() as { id: number }).id;
    },
    importCsv: async (user: TestUser, csv: string) => {
      const response = await sut().inject({
        method: 'POST',
        url: `${BASE}/transactions/import`,
        headers: { ...user.headers, 'content-type': 'text/csv' },
        payload: csv,
      });
      expect(response.statusCode).toBe(201);
    },
  };
}
