import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { AlertEvaluatorService } from '../../src/modules/alerts/alert-evaluator.service';
import { NotificationDelivererService } from '../../src/modules/alerts/delivery/notification-deliverer.service';
import { registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { openEventStream } from '../support/live-event-stream';

/** A restart between firing and delivering, and after delivering: nothing lost, nothing twice. */
describe('alerts across a restart', () => {
  let database: TestDatabase;
  let receiver: Server;
  let hookUrl: string;
  const received: string[] = [];

  const boot = () => createTestApp({ database, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = createServer((request, response) => {
      received.push(String(request.headers['webhook-id']));
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    receiver.close();
    await database.drop();
  });

  it('fires before the restart, delivers after it, and neither fires nor delivers again', async () => {
    let sut: TestApp = await boot();
    const baseUrl = await sut.listen();
    const user: TestUser = await registerUser(sut);
    const call = (method: 'POST' | 'PUT' | 'GET', path: string, body?: object, headers = user.headers) =>
      httpCall(`${baseUrl}/api/v1${path}`, { method, body, headers });
    expect(
      (await call('POST', '/preferences', { experience_level: 'beginner', alert_frequency: 'real-time' }))
        .status,
    ).toBe(201);
    expect((await call('PUT', '/notifications/settings', { webhook_url: hookUrl })).status).toBe(200);
    for (const symbol of ['AAPL', 'MSFT'])
      await call('POST', '/alerts', { kind: 'price_above', symbol, price: 1 });
    expect((await sut.app.get(AlertEvaluatorService).evaluate()).fired).toBe(2);
    await sut.close();

    sut = await boot();
    expect((await sut.app.get(AlertEvaluatorService).evaluate()).fired).toBe(0);
    expect(await sut.app.get(NotificationDelivererService).deliverDue()).toEqual({
      delivered: 2,
      retried: 0,
      dead: 0,
    });
    await sut.close();

    sut = await boot();
    expect(await sut.app.get(NotificationDelivererService).deliverDue()).toEqual({
      delivered: 0,
      retried: 0,
      dead: 0,
    });
    expect((await sut.app.get(AlertEvaluatorService).evaluate()).fired).toBe(0);
    const rows = await sut.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1`, [user.id]);
    expect(rows[0].n).toBe(2);
    expect(received).toHaveLength(2);
    expect(new Set(received).size).toBe(2);
    await sut.close();
  });

  it('ends open notification streams when the service shuts down', async () => {
    const sut = await boot();
    const baseUrl = await sut.listen();
    const user = await registerUser(sut);
    const stream = await openEventStream(`${baseUrl}/api/v1/notifications/stream`, user.headers);
    expect(stream.status).toBe(200);
    const started = performance.now();
    await sut.close();
    expect(performance.now() - started).toBeLessThan(10_000);
    await stream.until((s) => s.ended(), 5_000);
  });
});
