import { createTestApp, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';

describe('orchestrator probes', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('GET /livez answers without calling any dependency', async () => {
    const { response, data } = await typedApi(sut).GET('/livez');
    expect({ status: response.status, body: data }).toEqual({
      status: 200,
      body: { status: 'alive' },
    });
  });

  it('GET /readyz reports the database, Redis and draining', async () => {
    const { response, data } = await typedApi(sut).GET('/readyz');
    expect({ status: response.status, body: data }).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: {
          database: 'up',
          redis: process.env.TEST_REDIS_URL ? 'up' : 'not_configured',
          draining: false,
        },
      },
    });
  });

  it('the probes are not under the API prefix', async () => {
    // Paths outside the document: the typed client has no name for them.
    expect((await sut.inject({ url: '/api/v1/livez' })).statusCode).toBe(404);
    expect((await sut.inject({ url: '/api/v1/readyz' })).statusCode).toBe(404);
  });
});
