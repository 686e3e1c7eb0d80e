import { parseFormEncoded, TooManyFormFields } from './form-encoded';

describe('parseFormEncoded', () => {
  it('decodes escapes and + and lists repeated names', () => {
    expect(parseFormEncoded('username=ada%40example.com&password=a+b%2Bc&x=1&x=2&x=3')).toEqual({
      username: 'ada@example.com',
      password: 'a b+c',
      x: ['1', '2', '3'],
    });
  });

  it('keeps a malformed percent-escape as written and decodes the valid ones around it', () => {
    expect(parseFormEncoded('a=100%25%zz&b=%&c=%E0%A4%A')).toEqual({ a: '100%%zz', b: '%', c: '\ufffd%A' });
  });

  it('defines __proto__ as an ordinary field', () => {
    const sut = parseFormEncoded('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(sut)).toBe(Object.prototype);
    expect(Object.keys(sut)).toEqual(['__proto__', 'constructor']);
  });
});

describe('parseFormEncoded with a field budget', () => {
  it('accepts up to the budget, repeated names included, and refuses one pair more', () => {
    const pairs = (count: number) => Array.from({ length: count }, () => 'x=1').join('&');
    expect(parseFormEncoded(pairs(64), 64)).toEqual({ x: new Array(64).fill('1') });
    expect(() => parseFormEncoded(pairs(65), 64)).toThrow(new TooManyFormFields(64));
    expect(() => parseFormEncoded(pairs(65), 64)).toThrow('more than 64 fields in the form');
  });

  it('collects 100,000 repetitions of one name in linear time', () => {
    const sut = parseFormEncoded(Array.from({ length: 100_000 }, (_, n) => `x=${n}`).join('&'));
    expect(sut.x).toHaveLength(100_000);
  });
});
