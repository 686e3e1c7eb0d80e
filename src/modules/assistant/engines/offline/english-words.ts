import { readFileSync } from 'node:fs';

/**
 * The 275,000 words of `an-array-of-english-words` in a compact form: one string of the sorted
 * words separated by newlines, and where each word starts. A `Set` of them held ~25 MB of heap
 * (a string object per word, the hash table, and the array `require` keeps in its cache); this
 * holds ~3.6 MB, and a lookup is a binary search of about 18 comparisons without allocating.
 */
export class EnglishWords {
  private constructor(
    private readonly text: string,
    private readonly starts: Uint32Array,
  ) {}

  /**
   * Read from the package's JSON with `fs`, so that no module cache keeps a parsed array. The package
   * ships its words sorted, unique and in lowercase ASCII, so its JSON is the stored text once the
   * quotes and commas become newlines: no string per word is built at boot only to be collected
   * (275,000 of them, ~15 MB of garbage that grew the heap for good). Another list is sorted first.
   */
  static load(): EnglishWords {
    const json = readFileSync(require.resolve('an-array-of-english-words'), 'utf8').trim();
    return (
      EnglishWords.ofSortedText(json.slice(2, -2).replaceAll('","', '\n') + '\n') ??
      EnglishWords.of(JSON.parse(json) as string[])
    );
  }

  /** Newline-terminated words, when they are all lowercase ASCII in strictly ascending order. */
  static ofSortedText(text: string): EnglishWords | null {
    if (text.length < 2 || !text.endsWith('\n') || /[^a-z\n]|\n\n|^\n/.test(text)) return null;
    let count = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
    const starts = new Uint32Array(count + 1);
    let start = 0;
    for (let index = 0; index < count; index += 1) {
      starts[index] = start;
      start = text.indexOf('\n', start) + 1;
    }
    starts[count] = start;
    const words = new EnglishWords(text, starts);
    for (let index = 1; index < count; index += 1) if (words.compareWords(index - 1, index) >= 0) return null;
    return words;
  }

  static of(words: readonly string[]): EnglishWords {
    const sorted = [...new Set(words)].sort();
    const starts = new Uint32Array(sorted.length + 1);
    let offset = 0;
    for (const [index, word] of sorted.entries()) {
      starts[index] = offset;
      offset += word.length + 1;
    }
    starts[sorted.length] = offset;
    return new EnglishWords(sorted.join('\n') + '\n', starts);
  }

  has(word: string): boolean {
    let low = 0;
    let high = this.starts.length - 2;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compareAt(middle, word);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  /** The stored words at `first` and `second` in the order of `Array#sort`, read in place. */
  private compareWords(first: number, second: number): number {
    const secondStart = this.starts[second];
    return this.compareSpan(first, this.text, secondStart, this.starts[second + 1] - 1 - secondStart);
  }

  /** The stored word at `index` against `word`, in the order of `Array#sort` (UTF-16 units). */
  private compareAt(index: number, word: string): number {
    return this.compareSpan(index, word, 0, word.length);
  }

  /** The stored word at `index` against `length` units of `other` from `offset`, in `Array#sort` order. */
  private compareSpan(index: number, other: string, offset: number, length: number): number {
    const start = this.starts[index];
    const storedLength = this.starts[index + 1] - 1 - start;
    const common = Math.min(storedLength, length);
    for (let position = 0; position < common; position += 1) {
      const difference = this.text.charCodeAt(start + position) - other.charCodeAt(offset + position);
      if (difference !== 0) return difference;
    }
    return storedLength - length;
  }
}
