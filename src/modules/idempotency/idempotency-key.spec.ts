import { InvalidFieldError } from '../../common/errors/domain-errors';
import { parseIdempotencyKey as sut } from './idempotency-key';

const issuesOf = (value: string) => {
  try {
    sut(value);
  } catch (error) {
    if (error instanceof InvalidFieldError) return error.issues;
    throw error;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
};

describe('parseIdempotencyKey', () => {
  it('returns undefined without the header and the key as sent with it', () => {
    expect(sut(undefined)).toBeUndefined();
    expect(sut('a')).toBe('a');
    expect(sut(' ~ 9f0c-UUID ~ ')).toBe(' ~ 9f0c-UUID ~ ');
    expect(sut('k'.repeat(255))).toBe('k'.repeat(255));
  });

  it('reports an empty key, a key over 255 characters and any character outside printable ASCII', () => {
    expect(issuesOf('')).toEqual([
      {
        loc: ['header', 'Idempotency-Key'],
        msg: 'String should have at least 1 character',
        type: 'string_too_short',
        ctx: { min_length: 1 },
      },
    ]);
    expect(issuesOf('k'.repeat(256))).toEqual([
      {
        loc: ['header', 'Idempotency-Key'],
        msg: 'String should have at most 255 characters',
        type: 'string_too_long',
        ctx: { max_length: 255 },
      },
    ]);
    for (const key of ['tab\there', 'caf\u00e9', 'nul\u0000', 'del\u007f', 'emoji\u{1f600}']) {
      expect(issuesOf(key)).toEqual([
        {
          loc: ['header', 'Idempotency-Key'],
          msg: "String should match pattern '^[\\x20-\\x7E]+$'",
          type: 'string_pattern_mismatch',
          ctx: { pattern: '^[\\x20-\\x7E]+$' },
        },
      ]);
    }
  });

  it('reads a header repeated as separate values as the list it would be joined into', () => {
    expect(sut(['a', 'b'])).toBe('a, b');
  });
});
