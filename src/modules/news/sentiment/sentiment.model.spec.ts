import { FEATURE_BITS, extractFeatures } from './sentiment.features';
import { LinearSentimentModel, MODEL_CLASSES, SentimentModelFile } from './sentiment.model';

const BUCKETS = 1 << FEATURE_BITS;
const SCALES = { word: 1, char: 0, rule: 0 };

/** A model whose only non-zero weights sit on the buckets of the words given, per class. */
function modelWith(words: Record<string, [number, number, number]>, ruleOffset = 0): SentimentModelFile {
  const weights = new Int16Array(BUCKETS * MODEL_CLASSES.length);
  for (const [word, perClass] of Object.entries(words)) {
    extractFeatures(
      word,
      SCALES,
      (bucket, _value, name) => {
        if (name === word) perClass.forEach((weight, label) => (weights[bucket * 3 + label] = weight * 1000));
      },
      true,
    );
  }
  return {
    format: 'hashed-logistic-regression/2',
    featureBits: FEATURE_BITS,
    scales: SCALES,
    bias: [0, 0, 0],
    neutralOffset: 0,
    ruleOffset,
    weightScale: 0.001,
    weights: Buffer.from(weights.buffer).toString('base64'),
    training: {},
  };
}

describe('LinearSentimentModel', () => {
  const sut = LinearSentimentModel.fromFile(modelWith({ upgraded: [2, 0, 0], lawsuit: [0, 2, 0] }));

  it('gives probabilities that sum to 1 and follow the weights', () => {
    const good = sut.probabilities([{ text: 'upgraded', weight: 1 }]);
    expect(good.positive + good.negative + good.neutral).toBeCloseTo(1, 12);
    expect(good.positive).toBeGreaterThan(good.negative);
    const bad = sut.probabilities([{ text: 'lawsuit', weight: 1 }]);
    expect(bad.negative).toBeGreaterThan(bad.positive);
    const plain = sut.probabilities([{ text: 'meeting', weight: 1 }]);
    expect(plain.positive).toBeCloseTo(plain.negative, 12);
  });

  it('counts a part of a document at its weight', () => {
    const full = sut.probabilities([{ text: 'upgraded', weight: 1 }]);
    const weak = sut.probabilities([{ text: 'upgraded', weight: 0.5 }]);
    expect(weak.positive).toBeLessThan(full.positive);
    expect(weak.positive).toBeGreaterThan(1 / 3);
    const both = sut.probabilities([
      { text: 'upgraded', weight: 1 },
      { text: 'upgraded', weight: 0.5 },
    ]);
    expect(both.positive).toBeGreaterThan(full.positive);
  });

  it('adds the fixed rule offset in the direction of the finance rules', () => {
    const withRules = LinearSentimentModel.fromFile(modelWith({}, 3));
    const probabilities = withRules.probabilities([{ text: 'Operating profit fell 14 %.', weight: 1 }]);
    expect(probabilities.negative).toBeGreaterThan(probabilities.positive);
  });

  it('gives the fixed rule term more weight in a longer text, as the word evidence grows with length', () => {
    const withRules = LinearSentimentModel.fromFile(modelWith({}, 1));
    const headline = withRules.probabilities([{ text: 'Operating profit fell 14 %.', weight: 1 }]);
    const sentence = withRules.probabilities([
      {
        text: 'Operating profit fell 14 %. The company said so in a statement released on Monday morning in Helsinki today.',
        weight: 1,
      },
    ]);
    expect(sentence.negative - sentence.positive).toBeGreaterThan(headline.negative - headline.positive);
  });

  it('explains a score by its strongest features, signed towards positive', () => {
    expect(sut.explain('Shares upgraded despite lawsuit', 2)).toEqual([
      { feature: 'lawsuit', contribution: expect.closeTo(-2 / Math.sqrt(4), 3) },
      { feature: 'upgraded', contribution: expect.closeTo(2 / Math.sqrt(4), 3) },
    ]);
  });

  it('refuses a file of another format or size', () => {
    expect(() => LinearSentimentModel.fromFile({ ...modelWith({}), featureBits: FEATURE_BITS - 1 })).toThrow(
      /unsupported format/,
    );
  });
});
