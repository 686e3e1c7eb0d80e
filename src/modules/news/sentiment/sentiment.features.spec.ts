import {
  FEATURE_BITS,
  FeatureScales,
  RULE_REFERENCE_TOKENS,
  extractFeatures,
  normalisedTokens,
} from './sentiment.features';
import { sentimentScore } from './sentiment.scorer';

const SCALES: FeatureScales = { word: 1, char: 1, rule: 1 };

function features(text: string, named = false): { bucket: number; value: number; name?: string }[] {
  const found: { bucket: number; value: number; name?: string }[] = [];
  extractFeatures(text, SCALES, (bucket, value, name) => found.push({ bucket, value, name }), named);
  return found;
}

describe('normalisedTokens', () => {
  it('replaces cashtags, signed percentages, years and other numbers by placeholders', () => {
    expect(normalisedTokens('$BYND -11% after profit view slashed; +3.5 % in 2019, 20 points')).toEqual([
      '<tic>',
      '<pct->',
      'after',
      'profit',
      'view',
      'slashed',
      ';',
      '<pct+>',
      'in',
      '<year>',
      ',',
      '<num>',
      'points',
    ]);
  });

  it('lower-cases words, keeps apostrophes and drops links', () => {
    expect(normalisedTokens('Nike ISN’T cheap https://t.co/abc')).toEqual(['nike', "isn't", 'cheap']);
  });
});

describe('extractFeatures', () => {
  it('puts every feature in a bucket of the hashed space', () => {
    for (const { bucket } of features('Deutsche Bank upgrades $NKE to Buy, sees 20% upside')) {
      expect(Number.isInteger(bucket)).toBe(true);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(1 << FEATURE_BITS);
    }
  });

  it('gives the same buckets and values whether or not names are built', () => {
    const text = 'Growth slows to 4 % from 31 % as the company avoids bankruptcy';
    const plain = features(text).map(({ bucket, value }) => [bucket, value]);
    expect(features(text, true).map(({ bucket, value }) => [bucket, value])).toEqual(plain);
  });

  it('marks the words after a negator until the scope ends', () => {
    const names = features('Company avoids bankruptcy filing, shares jump', true).map(({ name }) => name);
    expect(names).toEqual(expect.arrayContaining(['NOT bankruptcy', 'NOT filing']));
    expect(names).not.toContain('NOT shares');
  });

  it('counts word features less in a long text than in a short one', () => {
    const short = features('Profit rose', true).find(({ name }) => name === 'profit');
    const long = features('Profit rose as the company sold more units in all of its markets', true).find(
      ({ name }) => name === 'profit',
    );
    expect(long!.value).toBeLessThan(short!.value);
  });

  it("returns the finance rules' score and feeds their evidence in as features", () => {
    const text = 'Operating profit fell 14 %.';
    const names: (string | undefined)[] = [];
    const { rules } = extractFeatures(text, SCALES, (_bucket, _value, name) => names.push(name), true);
    expect(rules).toBeCloseTo(sentimentScore(text), 12);
    expect(rules).toBeLessThan(0);
    expect(names).toEqual(
      expect.arrayContaining(['rules score', 'rules score, negative part', 'rule evidence: fell-']),
    );
  });

  it("scales the rules' fixed term of a text longer than a headline by the square root of its length", () => {
    const ignore = (): void => undefined;
    const headline = 'Operating profit fell 14 %.';
    const sentence = `${headline} The company said so in a statement released on Monday morning in Helsinki, Finland, today.`;
    const short = extractFeatures(headline, SCALES, ignore);
    const long = extractFeatures(sentence, SCALES, ignore);
    expect(short.ruleTerm).toBe(short.rules);
    expect(long.rules).toBeCloseTo(short.rules, 12);
    expect(long.ruleTerm).toBeCloseTo(long.rules * Math.sqrt(23 / RULE_REFERENCE_TOKENS), 12);
  });
});
