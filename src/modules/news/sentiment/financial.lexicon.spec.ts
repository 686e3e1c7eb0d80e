import { LEXICON_BY_FIRST_WORD, lexiconEntry } from './financial.lexicon';
import { tokenize } from './sentiment.tokenizer';

describe('financial lexicon', () => {
  const phrases = [...LEXICON_BY_FIRST_WORD.values()].flat().map(({ words }) => words.join(' '));

  it('holds only phrases the tokenizer can produce, so that every entry can match', () => {
    const unmatchable = phrases.filter((phrase) => {
      const tokens = tokenize(phrase);
      return (
        tokens.some((token) => token.kind !== 'word') ||
        tokens.map((token) => token.text).join(' ') !== phrase
      );
    });
    expect(unmatchable).toEqual([]);
  });

  it('lists each first word longest phrase first, so that the matcher takes the longest match', () => {
    for (const bucket of LEXICON_BY_FIRST_WORD.values()) {
      const lengths = bucket.map(({ words }) => words.length);
      expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    }
  });

  it('knows which way each kind of quantity is good', () => {
    expect(lexiconEntry('operating profit')).toEqual({ type: 'metric', polarity: 1, kind: 'profit' });
    expect(lexiconEntry('net loss')).toEqual({ type: 'metric', polarity: -1, kind: 'loss' });
    expect(lexiconEntry('net debt')).toEqual({ type: 'metric', polarity: -1, kind: 'other' });
    expect(lexiconEntry('share capital')).toEqual({ type: 'metric', polarity: 0, kind: 'other' });
  });
});
