import { parseFormEncoded } from './form-encoded';

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
