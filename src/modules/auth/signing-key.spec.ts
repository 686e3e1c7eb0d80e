import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSigningKey } from './signing-key';

describe('resolveSigningKey', () => {
  const strong = 'f'.repeat(8) + '0123456789abcdef0123456789abcdef';

  it('uses a configured strong key in production', () => {
    expect(resolveSigningKey({ configured: strong, production: true, dataDir: '/nonexistent' })).toBe(strong);
  });

  it.each([null, 'secret', 'short-key', 'a'.repeat(40)])('stops a production boot for %p', (configured) => {
    expect(() => resolveSigningKey({ configured, production: true, dataDir: '/nonexistent' })).toThrow(
      /SECRET_KEY/,
    );
  });

  it('generates a key once in development and keeps it in DATA_DIR, readable by its owner only', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signing-key-'));
    const first = resolveSigningKey({ configured: null, production: false, dataDir });
    const second = resolveSigningKey({ configured: null, production: false, dataDir });
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    expect(readFileSync(join(dataDir, 'secret_key'), 'utf8')).toBe(first);
    expect(statSync(join(dataDir, 'secret_key')).mode & 0o777).toBe(0o600);
  });
});
