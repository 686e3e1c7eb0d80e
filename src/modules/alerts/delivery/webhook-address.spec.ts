import { isForbiddenAddress, webhookUrlProblem } from './webhook-address';

describe('webhookUrlProblem', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses;

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
  ])('forbids %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])('allows %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(false),
  );

  it('accepts an https URL whose every address is public', async () => {
    expect(
      await webhookUrlProblem('https://hooks.example.com/x', [], resolvesTo('93.184.216.34')),
    ).toBeNull();
  });

  it('refuses http, credentials, and names resolving to any private address', async () => {
    expect(await webhookUrlProblem('http://hooks.example.com/x', [], resolvesTo('93.184.216.34'))).toBe(
      'webhook_url must be an https URL',
    );
    expect(await webhookUrlProblem('https://a:b@hooks.example.com/x', [], resolvesTo('93.184.216.34'))).toBe(
      'webhook_url must not carry credentials',
    );
    expect(
      await webhookUrlProblem('https://rebind.example.com/', [], resolvesTo('93.184.216.34', '10.0.0.1')),
    ).toBe('webhook_url must not resolve to a private, loopback or link-local address');
    expect(await webhookUrlProblem('ftp://example.com/', [], resolvesTo('93.184.216.34'))).toBe(
      'webhook_url must be an https URL',
    );
  });

  it('lets the allow-list name a host, or a host and port, for plain http on loopback', async () => {
    expect(await webhookUrlProblem('http://127.0.0.1:9000/hook', ['127.0.0.1'], resolvesTo())).toBeNull();
    expect(
      await webhookUrlProblem('http://127.0.0.1:9000/hook', ['127.0.0.1:9000'], resolvesTo()),
    ).toBeNull();
    expect(await webhookUrlProblem('http://127.0.0.1:9001/hook', ['127.0.0.1:9000'], resolvesTo())).toBe(
      'webhook_url must be an https URL',
    );
  });
});
