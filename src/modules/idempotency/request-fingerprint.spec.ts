import { createHash } from 'node:crypto';
import { requestFingerprint as sut } from './request-fingerprint';

const ROUTE = '/api/v1/portfolio/transactions';

describe('requestFingerprint', () => {
  it('is the SHA-256 of the canonical JSON of method, route and body', () => {
    const expected = createHash('sha256')
      .update('["POST","/r",{"a":[1,{"b":null,"c":"x"}],"z":true}]')
      .digest('hex');
    expect(sut('post', '/r', { z: true, a: [1, { c: 'x', b: null }] })).toBe(expected);
  });

  it('ignores the order of object keys at every level, not the order of array items', () => {
    const body = { symbol: 'AAPL', side: 'buy', nested: { x: 1, y: [1, 2] } };
    const reordered = { nested: { y: [1, 2], x: 1 }, side: 'buy', symbol: 'AAPL' };
    expect(sut('POST', ROUTE, reordered)).toBe(sut('POST', ROUTE, body));
    expect(sut('POST', ROUTE, { ...body, nested: { x: 1, y: [2, 1] } })).not.toBe(sut('POST', ROUTE, body));
  });

  it('tells apart bodies, routes, methods and a text body from the same text as JSON', () => {
    const fingerprints = [
      sut('POST', ROUTE, { quantity: 10 }),
      sut('POST', ROUTE, { quantity: 11 }),
      sut('POST', ROUTE, { quantity: '10' }),
      sut('POST', `${ROUTE}/import`, { quantity: 10 }),
      sut('PUT', ROUTE, { quantity: 10 }),
      sut('POST', ROUTE, '{"quantity":10}'),
      sut('POST', ROUTE, undefined),
      sut('POST', ROUTE, {}),
    ];
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it('hashes a body nested far deeper than the call stack allows without overflowing', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200_000; level += 1) deep = level % 2 ? [deep] : { a: deep };
    expect(sut('POST', ROUTE, deep)).toMatch(/^[0-9a-f]{64}$/);
  });
});
