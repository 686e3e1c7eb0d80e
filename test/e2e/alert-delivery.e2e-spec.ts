import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { Clock } from '../../src/common/time/clock';
import { AlertEvaluatorService } from '../../src/modules/alerts/alert-evaluator.service';
import { BriefingSchedulerService } from '../../src/modules/alerts/delivery/briefing-scheduler.service';
import { NotificationDelivererService } from '../../src/modules/alerts/delivery/notification-deliverer.service';
import { FakeClock } from '../fakes/clock';
import { registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers `status()` and keeps what it received. */
async function startReceiver(
  status: () => number,
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

interface Mail {
  to: string;
  raw: string;
}

async function startSmtp(): Promise<{ port: number; mails: Mail[]; server: SMTPServer }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += String(chunk)));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, mails, server };
}

/** Quoted-printable soft breaks and escapes undone, enough to search a message's text. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('notification delivery: webhooks, email, digests and privacy', () => {
  const clock = new FakeClock();
  let sut: TestApp;
  let baseUrl: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const servers: Server[] = [];

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT', path: string, body?: object) =>
    httpCall(`${baseUrl}/api/v1${path}`, { method, body, headers: who.headers });
  const evaluate = () => sut.app.get(AlertEvaluatorService).evaluate();
  const deliver = () => sut.app.get(NotificationDelivererService).deliverDue();
  const fireOne = async (who: TestUser, symbol = 'AAPL') => {
    expect((await call(who, 'POST', '/alerts', { kind: 'price_above', symbol, price: 1 })).status).toBe(201);
    await evaluate();
  };
  const withPreferences = async (who: TestUser, fields: object) =>
    expect(
      (await call(who, 'POST', '/preferences', { experience_level: 'intermediate', ...fields })).status,
    ).toBe(201);

  beforeAll(async () => {
    smtp = await startSmtp();
    sut = await createTestApp({
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
      env: {
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_MAX_ATTEMPTS: '3',
        WEBHOOK_RETRY_BASE_MS: '1000',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        EMAIL_FROM: 'Alerts <alerts@example.com>',
        PUBLIC_URL: 'https://invest.example.com',
      },
    });
    baseUrl = await sut.listen();
  });
  afterAll(async () => {
    await sut.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    for (const server of servers) server.close();
  });

  it('refuses webhook URLs that are not https, too long or private, and stores nothing', async () => {
    const user = await registerUser(sut);
    const before = await call(user, 'GET', '/notifications/settings');
    expect(before.body).toEqual({
      webhook_url: null,
      webhook_secret: null,
      email_enabled: false,
      email_available: true,
      time_zone: 'America/New_York',
    });
    const refusals: [object, (string | number)[], string][] = [
      [{ webhook_url: 'http://hooks.example.com/x' }, ['body', 'webhook_url'], 'value_error'],
      [
        { webhook_url: `https://example.com/${'a'.repeat(2050)}` },
        ['body', 'webhook_url'],
        'string_too_long',
      ],
      [{ webhook_url: 'https://10.0.0.7/hook' }, ['body', 'webhook_url'], 'value_error'],
      [{ webhook_url: 'https://[::1]/hook' }, ['body', 'webhook_url'], 'value_error'],
      [{ webhook_url: 'https://localhost/hook' }, ['body', 'webhook_url'], 'value_error'],
      [{ webhook_url: 'https://169.254.169.254/latest' }, ['body', 'webhook_url'], 'value_error'],
      [{ webhook_url: 'not a url' }, ['body', 'webhook_url'], 'value_error'],
      [{ time_zone: 'Mars/Olympus', webhook_url: 'https://10.0.0.7/' }, ['body', 'time_zone'], 'value_error'],
    ];
    for (const [body, loc, type] of refusals) {
      const answer = await call(user, 'PUT', '/notifications/settings', body);
      expect(answer.status).toBe(422);
      expect((answer.body as { detail: object[] }).detail).toContainEqual(
        expect.objectContaining({ loc, type }),
      );
    }
    expect((await call(user, 'GET', '/notifications/settings')).body).toEqual(before.body);
  });

  it('posts each notification signed per Standard Webhooks, and the signature verifies', async () => {
    const receiver = await startReceiver(() => 204);
    servers.push(receiver.server);
    const user = await registerUser(sut);
    await withPreferences(user, { privacy_level: 'full', alert_frequency: 'real-time' });
    const settings = await call(user, 'PUT', '/notifications/settings', { webhook_url: receiver.url });
    expect(settings.status).toBe(200);
    const { webhook_secret: secret } = settings.body as { webhook_secret: string };
    expect(secret).toMatch(/^whsec_/);

    await fireOne(user);
    expect(await deliver()).toEqual({ delivered: 1, retried: 0, dead: 0 });
    expect(receiver.received).toHaveLength(1);
    const [{ headers, body }] = receiver.received;
    const verified = new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    }) as { type: string; data: { title: string; data: { price: number } } };
    expect(verified.type).toBe('notification.created');
    expect(verified.data.title).toBe('AAPL rose above 1');
    expect(verified.data.data.price).toBeGreaterThan(1);
    expect(() =>
      new Webhook(secret).verify(body.replace('AAPL', 'MSFT'), {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }),
    ).toThrow();
    expect(await deliver()).toEqual({ delivered: 0, retried: 0, dead: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a failing receiver with back-off, then keeps the delivery as a dead letter', async () => {
    const receiver = await startReceiver(() => 500);
    servers.push(receiver.server);
    const user = await registerUser(sut);
    await call(user, 'PUT', '/notifications/settings', { webhook_url: receiver.url });
    await fireOne(user);

    expect(await deliver()).toEqual({ delivered: 0, retried: 1, dead: 0 });
    expect(await deliver()).toEqual({ delivered: 0, retried: 0, dead: 0 }); // not due before the back-off
    clock.advance(1_000);
    expect(await deliver()).toEqual({ delivered: 0, retried: 1, dead: 0 });
    clock.advance(1_000);
    expect(await deliver()).toEqual({ delivered: 0, retried: 0, dead: 0 }); // the second wait is twice as long
    clock.advance(1_000);
    expect(await deliver()).toEqual({ delivered: 0, retried: 0, dead: 1 });
    clock.advance(60_000);
    expect(await deliver()).toEqual({ delivered: 0, retried: 0, dead: 0 });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(1);

    const dead = await call(user, 'GET', '/notifications/deliveries?status=dead');
    expect(dead.body).toEqual([
      expect.objectContaining({
        channel: 'webhook',
        status: 'dead',
        attempts: 3,
        last_error: 'receiver answered 500',
        next_attempt_at: null,
        delivered_at: null,
      }),
    ]);
  });

  it('privacy_level decides what leaves: minimal sends a title and a link, limited no amounts', async () => {
    const receiver = await startReceiver(() => 200);
    servers.push(receiver.server);
    for (const privacy of ['minimal', 'limited']) {
      const user = await registerUser(sut);
      await withPreferences(user, { privacy_level: privacy, alert_frequency: 'real-time' });
      await call(user, 'PUT', '/notifications/settings', { webhook_url: receiver.url });
      await fireOne(user);
    }
    await deliver();
    const payloads = receiver.received.map(
      (request) => (JSON.parse(request.body) as { data: Record<string, unknown> }).data,
    );
    expect(payloads).toHaveLength(2);
    const minimal = payloads.find((payload) => payload.title === 'You have a new alert')!;
    const limited = payloads.find((payload) => payload !== minimal)!;
    expect(minimal).toEqual({
      id: expect.any(Number),
      kind: 'price_above',
      title: 'You have a new alert',
      created_at: expect.any(String),
      inbox_url: 'https://invest.example.com/api/v1/notifications',
    });
    expect(limited.title).toBe('New price above alert');
    expect(limited.text).toBeUndefined();
    expect(limited.data).toEqual({ symbol: 'AAPL', as_of: expect.any(String), source: 'market data' });
  });

  it('emails a real-time notification with an unsubscribe link that turns email off', async () => {
    const user = await registerUser(sut);
    await withPreferences(user, { privacy_level: 'full', alert_frequency: 'real-time' });
    expect((await call(user, 'PUT', '/notifications/settings', { email_enabled: true })).body).toMatchObject({
      email_enabled: true,
    });
    await fireOne(user, 'MSFT');
    expect(await deliver()).toEqual({ delivered: 1, retried: 0, dead: 0 });
    const mail = smtp.mails.find((candidate) => candidate.to === user.email)!;
    const text = decoded(mail.raw);
    expect(text).toContain('Subject: MSFT rose above 1');
    expect(text).toContain('From: Alerts <alerts@example.com>');
    expect(text).toContain('Content-Type: text/html');
    const link =
      /https:\/\/invest\.example\.com(\/api\/v1\/notifications\/unsubscribe\?channel=email&token=[0-9a-f-]{36})/.exec(
        text,
      )!;
    expect(text).toMatch(
      /List-Unsubscribe:\s+<https:\/\/invest\.example\.com\/api\/v1\/notifications\/unsubscribe/,
    );
    const unsubscribed = await httpCall(`${baseUrl}${link[1]}`);
    expect(unsubscribed).toMatchObject({ status: 200, body: { message: 'Unsubscribed' } });
    expect((await call(user, 'GET', '/notifications/settings')).body).toMatchObject({ email_enabled: false });
    expect(
      await httpCall(
        `${baseUrl}/api/v1/notifications/unsubscribe?channel=email&token=00000000-0000-4000-8000-000000000000`,
      ),
    ).toMatchObject({ status: 404, body: { detail: 'Unsubscribe link not found' } });
  });

  it('collects a daily digest per user and sends it at daily_summary_time in each user’s zone', async () => {
    clock.set('2026-11-18T03:00:00Z');
    const berlin = await registerUser(sut);
    const losAngeles = await registerUser(sut);
    for (const [user, zone] of [
      [berlin, 'Europe/Berlin'],
      [losAngeles, 'America/Los_Angeles'],
    ] as const) {
      await withPreferences(user, {
        alert_frequency: 'daily',
        daily_summary_time: 'morning',
        privacy_level: 'full',
      });
      await call(user, 'PUT', '/notifications/settings', { email_enabled: true, time_zone: zone });
      await fireOne(user, 'AAPL');
      await fireOne(user, 'MSFT');
    }
    const mailsTo = (user: TestUser) => smtp.mails.filter((mail) => mail.to === user.email);
    expect(await deliver()).toEqual({ delivered: 0, retried: 0, dead: 0 });

    clock.set('2026-11-18T06:29:00Z'); // 07:29 in Berlin
    await deliver();
    expect(mailsTo(berlin)).toHaveLength(0);
    clock.set('2026-11-18T06:30:00Z'); // 07:30 in Berlin
    expect(await deliver()).toEqual({ delivered: 2, retried: 0, dead: 0 });
    expect(mailsTo(berlin)).toHaveLength(1);
    expect(decoded(mailsTo(berlin)[0].raw)).toContain('Subject: Your daily alert digest: 2 alerts');
    expect(mailsTo(losAngeles)).toHaveLength(0);

    clock.set('2026-11-18T15:30:00Z'); // 07:30 in Los Angeles
    expect(await deliver()).toEqual({ delivered: 2, retried: 0, dead: 0 });
    expect(mailsTo(losAngeles)).toHaveLength(1);
    expect(mailsTo(berlin)).toHaveLength(1);
    clock.set(new Date());
  });

  it('delivers the daily briefing at daily_summary_time in each user’s zone, once, and not on a closed day', async () => {
    clock.set('2026-11-18T03:00:00Z');
    const berlin = await registerUser(sut);
    const losAngeles = await registerUser(sut);
    for (const [user, zone] of [
      [berlin, 'Europe/Berlin'],
      [losAngeles, 'America/Los_Angeles'],
    ] as const) {
      await withPreferences(user, {
        alert_frequency: 'real-time',
        daily_summary_time: 'morning',
        privacy_level: 'full',
      });
      await call(user, 'PUT', '/notifications/settings', { email_enabled: true, time_zone: zone });
    }
    const scheduler = sut.app.get(BriefingSchedulerService);
    const briefingsTo = (user: TestUser) =>
      smtp.mails.filter((mail) => mail.to === user.email && decoded(mail.raw).includes('briefing for'));

    clock.set('2026-11-18T06:29:00Z');
    await scheduler.sendDue();
    await deliver();
    expect(briefingsTo(berlin)).toHaveLength(0);
    clock.set('2026-11-18T06:30:00Z'); // 07:30 in Berlin
    await scheduler.sendDue();
    await scheduler.sendDue();
    await deliver();
    expect(briefingsTo(berlin)).toHaveLength(1);
    expect(decoded(briefingsTo(berlin)[0].raw)).toContain('Subject: Your morning briefing for 2026-11-18');
    expect(briefingsTo(losAngeles)).toHaveLength(0);

    clock.set('2026-11-18T15:30:00Z'); // 07:30 in Los Angeles
    await scheduler.sendDue();
    await deliver();
    expect(briefingsTo(losAngeles)).toHaveLength(1);
    expect(briefingsTo(berlin)).toHaveLength(1);
    const inbox = (await call(berlin, 'GET', '/notifications')).body as {
      items: { kind: string; rule_id: null }[];
    };
    expect(inbox.items.filter((item) => item.kind === 'briefing')).toEqual([
      expect.objectContaining({ kind: 'briefing', rule_id: null }),
    ]);

    clock.set('2026-11-21T06:30:00Z'); // Saturday 07:30 in Berlin: the exchange is closed, nothing happened
    await scheduler.sendDue();
    await deliver();
    expect(briefingsTo(berlin)).toHaveLength(1);
    clock.set(new Date());
  });
});
