import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook must not reach: loopback, private, link-local, unique-local, CGNAT, unspecified, multicast. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');

export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Why the service refuses to post to `raw`, or null: not http(s), not https, or a host that
 * resolves to a private or loopback address — unless the operator's allow-list names the host
 * (`host` or `host:port`). Checked when the URL is set and again before every delivery, since
 * what a name resolves to can change.
 */
export async function webhookUrlProblem(
  raw: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhook_url must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'webhook_url must be an https URL';
  if (url.username || url.password) return 'webhook_url must not carry credentials';
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowedHosts.includes(hostname) || allowedHosts.includes(url.host.toLowerCase());
  if (allowed) return null;
  if (url.protocol !== 'https:') return 'webhook_url must be an https URL';
  let addresses: string[];
  try {
    addresses = isIP(hostname) ? [hostname] : await resolve(hostname);
  } catch {
    return `webhook_url host ${hostname} does not resolve`;
  }
  if (addresses.length === 0 || addresses.some(isForbiddenAddress))
    return 'webhook_url must not resolve to a private, loopback or link-local address';
  return null;
}
