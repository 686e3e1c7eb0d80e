import { SectionDraft, wordSection } from './briefing-wording';

const draft: SectionDraft = {
  conclusion: 'your holdings are moderate.',
  points: ['Largest holding: AAPL at 31.25 %.', 'Second point.', 'Third point.'],
  technical: ['Beta 1.05 against the S&P 500.'],
  terms: ['beta'],
};

describe('wordSection', () => {
  it('step-by-step: numbered steps ending in the conclusion', () => {
    expect(wordSection(draft, { style: 'step-by-step', depth: 'detailed', beginner: false })).toBe(
      '1. Largest holding: AAPL at 31.25 %.\n2. Second point.\n3. Third point.\n4. So: your holdings are moderate.',
    );
  });

  it('key-points: bullets, the conclusion first and capitalised', () => {
    expect(wordSection(draft, { style: 'key-points', depth: 'simple', beginner: false })).toBe(
      '- Your holdings are moderate.\n- Largest holding: AAPL at 31.25 %.\n- Second point.',
    );
  });

  it('bottom-line-first, technical depth, for a beginner: the figures and a one-line explanation of each term', () => {
    expect(wordSection(draft, { style: 'bottom-line-first', depth: 'technical', beginner: true })).toBe(
      [
        'Bottom line: your holdings are moderate.',
        'Largest holding: AAPL at 31.25 %.',
        'Second point.',
        'Third point.',
        'Beta 1.05 against the S&P 500.',
        'Beta: how strongly your holdings move with the S&P 500 (1 means in step).',
      ].join('\n'),
    );
  });
});
