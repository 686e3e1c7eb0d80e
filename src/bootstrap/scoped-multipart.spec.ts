import fastifyMultipart from '@fastify/multipart';
import Fastify, { FastifyInstance } from 'fastify';
import { createHook } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { setTimeout as pause } from 'node:timers/promises';
import { scopedMultipart } from './scoped-multipart';

const BOUNDARY = 'scoped-multipart-test';

/** `content` as the one file of a multipart body, posted to `url`. */
function upload(app: FastifyInstance, url: string, content: string) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload:
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="export.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
  });
}

async function appWith(register: (app: FastifyInstance) => PromiseLike<unknown>): Promise<FastifyInstance> {
  const app = Fastify();
  await register(app);
  app.get('/light', () => ({ ok: true }));
  app.post('/upload', async (request) => (await request.file())!.toBuffer().then(String));
  app.post('/upload-to-disk', async (request) => {
    const { files } = await request.saveRequestFiles();
    return { path: files[0].filepath };
  });
  await app.ready();
  return app;
}

/** Promises created while `app` answers GET /light, once warm. */
async function promisesPerLightRequest(app: FastifyInstance): Promise<number> {
  await app.inject({ method: 'GET', url: '/light' });
  let promises = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') promises += 1;
    },
  }).enable();
  try {
    await app.inject({ method: 'GET', url: '/light' });
  } finally {
    hook.disable();
  }
  return promises;
}

const sutOptions = { routes: ['/upload', '/upload-to-disk'], multipart: { limits: { files: 1 } } };

describe('scopedMultipart', () => {
  let sut: FastifyInstance;

  beforeAll(async () => {
    sut = await appWith((app) => app.register(scopedMultipart, sutOptions));
  });
  afterAll(() => sut.close());

  it('costs a route that reads no upload nothing: as many promises as without the plugin', async () => {
    const without = await appWith(async () => undefined);
    const appWide = await appWith((app) => app.register(fastifyMultipart));
    try {
      const bare = await promisesPerLightRequest(without);
      expect(await promisesPerLightRequest(appWide)).toBeGreaterThan(bare);
      expect(await promisesPerLightRequest(sut)).toBe(bare);
    } finally {
      await Promise.all([without.close(), appWide.close()]);
    }
  });

  it('reads the file of a multipart body on an upload route', async () => {
    const response = await upload(sut, '/upload', 'Date,Action\n2025-01-02,Buy');

    expect([response.statusCode, response.body]).toEqual([200, 'Date,Action\n2025-01-02,Buy']);
  });

  it("keeps the plugin's clean-up on the upload routes: a file saved to disk is gone once answered", async () => {
    const response = await upload(sut, '/upload-to-disk', 'a,b\n1,2');
    const { path } = response.json<{ path: string }>();

    for (let waited = 0; waited < 2000 && existsSync(path); waited += 20) await pause(20);
    expect(response.statusCode).toBe(200);
    expect(existsSync(path)).toBe(false);
  });
});
