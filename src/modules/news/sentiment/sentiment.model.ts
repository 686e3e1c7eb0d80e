import { FEATURE_BITS, FeatureScales, extractFeatures } from './sentiment.features';

/** The classes in the order of the weight columns. */
export const MODEL_CLASSES = ['positive', 'negative', 'neutral'] as const;
const CLASS_COUNT = MODEL_CLASSES.length;

/** The committed artefact: hashed weights (int16, one shared scale) plus how they were made. */
export interface SentimentModelFile {
  format: 'hashed-logistic-regression/2';
  featureBits: number;
  scales: FeatureScales;
  /** Per class, in MODEL_CLASSES order. */
  bias: number[];
  /** Added to the neutral logit after training, chosen by cross-validation for the label thresholds. */
  neutralOffset: number;
  /**
   * Fixed, not learned: ± this times the finance rules' length-scaled score (`ExtractedText.ruleTerm`)
   * is added to the positive/negative logits.
   */
  ruleOffset: number;
  weightScale: number;
  /** base64 of little-endian int16 weights, bucket-major: [bucket * 3 + class]. */
  weights: string;
  training: Record<string, unknown>;
}

export interface ClassProbabilities {
  positive: number;
  negative: number;
  neutral: number;
}

export interface WeightedText {
  text: string;
  weight: number;
}

export interface FeatureContribution {
  feature: string;
  /** Contribution to the positive logit minus the negative logit. */
  contribution: number;
}

/** A multinomial logistic regression over hashed features (sentiment.features.ts). */
export class LinearSentimentModel {
  private readonly logits = new Float64Array(CLASS_COUNT);

  constructor(
    readonly scales: FeatureScales,
    private readonly weights: Float32Array,
    private readonly bias: readonly number[],
    private readonly neutralOffset: number,
    private readonly ruleOffset: number,
  ) {
    if (weights.length !== (1 << FEATURE_BITS) * CLASS_COUNT)
      throw new Error(`sentiment model: expected ${(1 << FEATURE_BITS) * CLASS_COUNT} weights`);
  }

  static fromFile(file: SentimentModelFile): LinearSentimentModel {
    if (file.format !== 'hashed-logistic-regression/2' || file.featureBits !== FEATURE_BITS)
      throw new Error(`sentiment model: unsupported format ${file.format}/${file.featureBits}`);
    const bytes = Buffer.from(file.weights, 'base64');
    const quantised = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
    const weights = new Float32Array(quantised.length);
    for (let index = 0; index < quantised.length; index += 1)
      weights[index] = quantised[index] * file.weightScale;
    return new LinearSentimentModel(file.scales, weights, file.bias, file.neutralOffset, file.ruleOffset);
  }

  /**
   * Class probabilities of a document made of parts, each part's features (and rule score) counted
   * at its weight: the evidence of a title and its description adds up, the prior counts once.
   */
  probabilities(parts: readonly WeightedText[]): ClassProbabilities {
    const logits = this.logits;
    for (let label = 0; label < CLASS_COUNT; label += 1) logits[label] = this.bias[label];
    logits[2] += this.neutralOffset;
    const weights = this.weights;
    for (const { text, weight } of parts) {
      const { ruleTerm } = extractFeatures(text, this.scales, (bucket, value) => {
        const base = bucket * CLASS_COUNT;
        const weighted = value * weight;
        logits[0] += weights[base] * weighted;
        logits[1] += weights[base + 1] * weighted;
        logits[2] += weights[base + 2] * weighted;
      });
      logits[0] += this.ruleOffset * ruleTerm * weight;
      logits[1] -= this.ruleOffset * ruleTerm * weight;
    }
    const max = Math.max(logits[0], logits[1], logits[2]);
    const positive = Math.exp(logits[0] - max);
    const negative = Math.exp(logits[1] - max);
    const neutral = Math.exp(logits[2] - max);
    const total = positive + negative + neutral;
    return { positive: positive / total, negative: negative / total, neutral: neutral / total };
  }

  /** The features that moved the text most towards positive (> 0) or negative (< 0), strongest first. */
  explain(text: string, limit: number): FeatureContribution[] {
    const byFeature = new Map<string, number>();
    const { ruleTerm } = extractFeatures(
      text,
      this.scales,
      (bucket, value, name) => {
        const base = bucket * CLASS_COUNT;
        const contribution = (this.weights[base] - this.weights[base + 1]) * value;
        const feature = name ?? String(bucket);
        byFeature.set(feature, (byFeature.get(feature) ?? 0) + contribution);
      },
      true,
    );
    byFeature.set('rules score (fixed weight)', 2 * this.ruleOffset * ruleTerm);
    return [...byFeature]
      .map(([feature, contribution]) => ({ feature, contribution }))
      .filter((item) => item.contribution !== 0)
      .sort(
        (a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || a.feature.localeCompare(b.feature),
      )
      .slice(0, limit);
  }
}
