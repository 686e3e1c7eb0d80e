import { EnglishWords } from './english-words';

describe('EnglishWords', () => {
  it('answers like a Set of the whole list for every listed word and for near misses', () => {
    const list = require('an-array-of-english-words') as string[];
    const words = EnglishWords.load();
    const set = new Set(list);
    for (let index = 0; index < list.length; index += 97) {
      const word = list[index];
      expect(words.has(word)).toBe(true);
      for (const probe of [`${word}q`, word.slice(0, -1), `${word}s`, `a${word}`])
        expect(words.has(probe)).toBe(set.has(probe));
    }
    expect(words.has(list[0])).toBe(true);
    expect(words.has(list[list.length - 1])).toBe(true);
    expect(words.has('')).toBe(false);
    expect(words.has('zzzzzzzz')).toBe(false);
  });

  it('finds words of a small list whatever their order, prefixes included', () => {
    const words = EnglishWords.of(['stock', 'a', 'stocks', 'bond', 'sto']);
    expect(['a', 'bond', 'sto', 'stock', 'stocks'].every((word) => words.has(word))).toBe(true);
    expect(['', 'st', 'stockss', 'bonds', 'b', 'c'].some((word) => words.has(word))).toBe(false);
  });

  it('takes newline-terminated words as they are only when lowercase and strictly ascending', () => {
    const words = EnglishWords.ofSortedText('a\nbond\nsto\nstock\nstocks\n');
    expect(['a', 'bond', 'sto', 'stock', 'stocks'].every((word) => words?.has(word))).toBe(true);
    expect(['', 'st', 'stockss', 'bonds', 'b', 'c'].some((word) => words?.has(word))).toBe(false);
    for (const text of ['bond\na\n', 'a\na\n', 'a\nBond\n', 'a\n\nb\n', 'a\nb', '', 'stock\nsto\n'])
      expect(EnglishWords.ofSortedText(text)).toBeNull();
  });

  it("reads the package's JSON as it is shipped: sorted, unique, lowercase", () => {
    const list = require('an-array-of-english-words') as string[];
    expect(EnglishWords.ofSortedText(`${list.join('\n')}\n`)).not.toBeNull();
  });
});
