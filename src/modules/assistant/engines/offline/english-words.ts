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

  /** Read from the package's JSON with `fs`, so that no module cache keeps the parsed array. */
  static load(): EnglishWords {
    const words = JSON.parse(readFileSync(require.resolve('an-array-of-english-words'), 'utf8')) as string[];
    return EnglishWords.of(words);
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

  /** The stored word at `index` against `word`, in the order of `Array#sort` (UTF-16 units). */
  private compareAt(index: number, word: string): number {
    const start = this.starts[index];
    const length = this.starts[index + 1] - 1 - start;
    const common = Math.min(length, word.length);
    for (let position = 0; position < common; position += 1) {
      const difference = this.text.charCodeAt(start + position) - word.charCodeAt(position);
      if (difference !== 0) return difference;
    }
    return length - word.length;
  }
}
