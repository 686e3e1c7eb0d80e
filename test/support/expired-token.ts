import { createHmac } from 'node:crypto';
import { TEST_SECRET_KEY } from '../setup/test-app';

const ALGORITHMS: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/**
 * The same access token as it is once its lifetime has run out: its claims (session, user, id)
 * unchanged but `iat` and `exp` an hour earlier, signed again with the tests' key. The service
 * checks `exp` against the wall clock, so this stands in for a tab left open past 30 minutes.
 */
export function expiredCopy(token: string): string {
  const [encodedHeader, encodedClaims] = token.split('.');
  const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString()) as { alg: string };
  const claims = JSON.parse(Buffer.from(encodedClaims, 'base64url').toString()) as {
    iat: number;
    exp: number;
  };
  const lifetime = claims.exp - claims.iat;
  const exp = Math.floor(Date.now() / 1000) - 3600;
  const body = `${encodedHeader}.${Buffer.from(JSON.stringify({ ...claims, iat: exp - lifetime, exp })).toString('base64url')}`;
  const signature = createHmac(ALGORITHMS[header.alg], TEST_SECRET_KEY).update(body).digest('base64url');
  return `${body}.${signature}`;
}
