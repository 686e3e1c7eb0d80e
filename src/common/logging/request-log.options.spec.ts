import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp from 'pino-http';
import { LoggedRequest, requestLogOptions } from './request-log.options';

describe('request log line', () => {
  let server: Server;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const sut = pinoHttp({ ...requestLogOptions('info'), stream });
    server = createServer((req, res) => {
      sut(req, res);
      // What the auth guard does once it has authenticated the request.
      if (req.url?.startsWith('/as-user')) (req as LoggedRequest).userId = 7;
      res.setHeader('x-secret-header', 'not for the log');
      res.statusCode = req.url?.endsWith('/failing') ? 500 : 201;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('holds the request id, method, url, status and time, and no headers', async () => {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const call = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/auth/me?x=1',
          headers: { authorization: 'Bearer secret-token', 'x-request-id': 'req-42' },
        },
        (response) => response.resume().on('end', resolve),
      );
      call.on('error', reject).end();
    });
    await new Promise((resolve) => setImmediate(resolve));

    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      req: { id: 'req-42', method: 'GET', url: '/api/v1/auth/me?x=1' },
      res: { statusCode: 201 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(Object.keys(line.req as object)).toEqual(['id', 'method', 'url']);
    expect(Object.keys(line.res as object)).toEqual(['statusCode']);
    expect(JSON.stringify(line)).not.toMatch(/secret/);
    expect(line).not.toHaveProperty('userId');
  });

  it('carries the user id of an authenticated request', async () => {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/as-user' }, (response) =>
        response.resume().on('end', resolve),
      )
        .on('error', reject)
        .end();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.at(-1)).toMatchObject({ userId: 7, req: { url: '/as-user' } });
  });

  it('carries the user id on the line of a failed request too', async () => {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/as-user/failing' }, (response) =>
        response.resume().on('end', resolve),
      )
        .on('error', reject)
        .end();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.at(-1)).toMatchObject({ userId: 7, res: { statusCode: 500 }, err: expect.any(Object) });
  });
});
