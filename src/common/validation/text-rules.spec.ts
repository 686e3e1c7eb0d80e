import { findUnstorableText, nulCharacterIssue } from './text-rules';

describe('findUnstorableText', () => {
  it('finds NUL characters in strings, list items and keys, in document order', () => {
    const sut = findUnstorableText(
      { a: 'ok', b: ['x', 'y\u0000'], 'c\u0000': 'hidden', d: { e: '\u0000' } },
      ['body'],
    );
    expect(sut).toEqual([
      nulCharacterIssue(['body', 'b', 1]),
      nulCharacterIssue(['body', 'c\u0000']),
      nulCharacterIssue(['body', 'd', 'e']),
    ]);
  });

  it('reports a lone surrogate as string_unicode but accepts a surrogate pair', () => {
    expect(findUnstorableText({ ok: '😀', bad: 'x\ud800' }, ['query'])).toEqual([
      {
        loc: ['query', 'bad'],
        msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
        type: 'string_unicode',
      },
    ]);
  });

  it('accepts every other control character and ignores non-strings', () => {
    expect(findUnstorableText({ text: '\u0001\t\n\u001f\u007f', n: 0, b: false, z: null }, ['body'])).toEqual(
      [],
    );
  });

  it('checks a bare string at the given loc', () => {
    expect(findUnstorableText('a\u0000', ['path', 'symbol'])).toEqual([
      nulCharacterIssue(['path', 'symbol']),
    ]);
  });

  it('walks a huge list without exhausting the stack', () => {
    expect(findUnstorableText(new Array(500_000).fill('a'), ['body'])).toEqual([]);
  });
});
