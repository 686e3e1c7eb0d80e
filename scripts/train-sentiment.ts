// Trains the news sentiment model (src/modules/news/sentiment/model/sentiment-model.json) on the
// TFNS train split only (MIT; ../shared/data/sentiment/tfns-train.tsv beside the repository).
// Hyper-parameters are chosen by stratified 5-fold cross-validation inside that split, under one
// transfer constraint checked on the Financial PhraseBank AllAgree dev split (see `choose`): no FPB
// text reaches the weights (CC BY-NC-SA), and the TFNS validation split and FPB test splits are
// never read here (they are reported by scripts/eval-sentiment.ts).
// Deterministic: a fixed seed drives the folds and the example order.
// Run: npm run train:sentiment [dataDir]
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { seededRandom } from '../src/common/random/seeded-random';
import {
  FEATURE_BITS,
  FeatureScales,
  extractFeatures,
} from '../src/modules/news/sentiment/sentiment.features';
import { MODEL_CLASSES, SentimentModelFile } from '../src/modules/news/sentiment/sentiment.model';
import { SentimentLabel, sentimentLabel } from '../src/modules/news/sentiment/sentiment.label';
import { classificationReport } from '../src/modules/news/sentiment/sentiment.metrics';

const SEED = 20261124;
const FOLDS = 5;
const BUCKETS = 1 << FEATURE_BITS;
const CLASS_COUNT = MODEL_CLASSES.length;
const MODEL_PATH = join(
  __dirname,
  '..',
  'src',
  'modules',
  'news',
  'sentiment',
  'model',
  'sentiment-model.json',
);

interface Example {
  label: number;
  /** The finance rules' length-scaled score (`ExtractedText.ruleTerm`), for the fixed term. */
  ruleTerm: number;
  /** Feature buckets and unscaled values per group: word, char, rule. */
  groups: { buckets: Int32Array; values: Float32Array }[];
}

interface HyperParameters {
  scales: FeatureScales;
  epochs: number;
  learningRate: number;
  l2: number;
  /** Fixed logit offset ±ruleOffset × the rules' length-scaled score on positive/negative, trained around. */
  ruleOffset: number;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

const UNIT_SCALES: FeatureScales[] = [
  { word: 1, char: 0, rule: 0 },
  { word: 0, char: 1, rule: 0 },
  { word: 0, char: 0, rule: 1 },
];

function readTrainingSet(path: string, select: (columns: string[]) => boolean = () => true): Example[] {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n');
  if (!header.startsWith('id\tlabel\tsentence')) throw new Error(`${path}: unexpected header "${header}"`);
  return lines
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'))
    .filter(select)
    .map(([, label, text]) => {
      const classIndex = (MODEL_CLASSES as readonly string[]).indexOf(label);
      if (classIndex < 0) throw new Error(`${path}: unknown label "${label}"`);
      let ruleTerm = 0;
      const groups = UNIT_SCALES.map((scales) => {
        const buckets: number[] = [];
        const values: number[] = [];
        ({ ruleTerm } = extractFeatures(text, scales, (bucket, value) => {
          if (value === 0) return;
          buckets.push(bucket);
          values.push(value);
        }));
        return { buckets: Int32Array.from(buckets), values: Float32Array.from(values) };
      });
      return { label: classIndex, groups, ruleTerm };
    });
}

interface Weights {
  weights: Float32Array;
  bias: Float64Array;
}

function logitsOf(model: Weights, example: Example, parameters: HyperParameters, out: Float64Array): void {
  const groupScales = groupScalesOf(parameters);
  for (let label = 0; label < CLASS_COUNT; label += 1) out[label] = model.bias[label];
  out[0] += parameters.ruleOffset * example.ruleTerm;
  out[1] -= parameters.ruleOffset * example.ruleTerm;
  example.groups.forEach((group, groupIndex) => {
    const scale = groupScales[groupIndex];
    for (let index = 0; index < group.buckets.length; index += 1) {
      const base = group.buckets[index] * CLASS_COUNT;
      const value = group.values[index] * scale;
      for (let label = 0; label < CLASS_COUNT; label += 1) out[label] += model.weights[base + label] * value;
    }
  });
}

function groupScalesOf(parameters: HyperParameters): number[] {
  const { scales } = parameters;
  return [scales.word, scales.char, scales.rule];
}

function softmax(logits: Float64Array, out: Float64Array): void {
  const max = Math.max(...logits);
  let total = 0;
  for (let label = 0; label < CLASS_COUNT; label += 1) {
    out[label] = Math.exp(logits[label] - max);
    total += out[label];
  }
  for (let label = 0; label < CLASS_COUNT; label += 1) out[label] /= total;
}

/** Multinomial logistic regression by AdaGrad with L2 on the features each step touches. */
function train(examples: Example[], parameters: HyperParameters, seed: number): Weights {
  const model: Weights = {
    weights: new Float32Array(BUCKETS * CLASS_COUNT),
    bias: new Float64Array(CLASS_COUNT),
  };
  const squaredGradients = new Float32Array(BUCKETS * CLASS_COUNT);
  const biasSquaredGradients = new Float64Array(CLASS_COUNT);
  const groupScales = groupScalesOf(parameters);
  const random = seededRandom(seed);
  const logits = new Float64Array(CLASS_COUNT);
  const probabilities = new Float64Array(CLASS_COUNT);
  const gradient = new Float64Array(CLASS_COUNT);
  const { learningRate, l2 } = parameters;
  for (let epoch = 0; epoch < parameters.epochs; epoch += 1) {
    for (const example of shuffle(examples, random)) {
      logitsOf(model, example, parameters, logits);
      softmax(logits, probabilities);
      for (let label = 0; label < CLASS_COUNT; label += 1) {
        gradient[label] = probabilities[label] - (label === example.label ? 1 : 0);
        biasSquaredGradients[label] += gradient[label] ** 2;
        model.bias[label] -=
          (learningRate * gradient[label]) / (Math.sqrt(biasSquaredGradients[label]) + 1e-8);
      }
      example.groups.forEach((group, groupIndex) => {
        const scale = groupScales[groupIndex];
        if (scale === 0) return;
        for (let index = 0; index < group.buckets.length; index += 1) {
          const base = group.buckets[index] * CLASS_COUNT;
          const value = group.values[index] * scale;
          for (let label = 0; label < CLASS_COUNT; label += 1) {
            const at = base + label;
            const step = gradient[label] * value + l2 * model.weights[at];
            squaredGradients[at] += step * step;
            model.weights[at] -= (learningRate * step) / (Math.sqrt(squaredGradients[at]) + 1e-8);
          }
        }
      });
    }
  }
  return model;
}

function predict(model: Weights, examples: Example[], parameters: HyperParameters): Float64Array[] {
  const logits = new Float64Array(CLASS_COUNT);
  return examples.map((example) => {
    logitsOf(model, example, parameters, logits);
    return Float64Array.from(logits);
  });
}

/** The label the service gives: from the margin P(positive) − P(negative) and the spec's ±0.1 bands. */
function labelFromLogits(logits: Float64Array, neutralOffset: number): SentimentLabel {
  const shifted = Float64Array.from(logits);
  shifted[2] += neutralOffset;
  const probabilities = new Float64Array(CLASS_COUNT);
  softmax(shifted, probabilities);
  return sentimentLabel(Math.round((probabilities[0] - probabilities[1]) * 10_000) / 10_000);
}

function evaluate(logits: Float64Array[], examples: Example[], neutralOffset: number) {
  return classificationReport(
    examples.map((example, index) => ({
      gold: MODEL_CLASSES[example.label],
      predicted: labelFromLogits(logits[index], neutralOffset),
    })),
  );
}

const NEUTRAL_OFFSETS = Array.from({ length: 41 }, (_, index) => -1 + index * 0.1);

/** Out-of-fold logits of every training example, from stratified folds. */
function crossValidatedLogits(examples: Example[], parameters: HyperParameters): Float64Array[] {
  const random = seededRandom(SEED);
  const foldOf = new Array<number>(examples.length);
  for (let label = 0; label < CLASS_COUNT; label += 1) {
    const members = shuffle(
      examples.map((example, index) => (example.label === label ? index : -1)).filter((index) => index >= 0),
      random,
    );
    members.forEach((index, position) => (foldOf[index] = position % FOLDS));
  }
  const logits = new Array<Float64Array>(examples.length);
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const trainingSet = examples.filter((_, index) => foldOf[index] !== fold);
    const heldOutIndices = examples.map((_, index) => index).filter((index) => foldOf[index] === fold);
    const model = train(trainingSet, parameters, SEED + fold);
    const predicted = predict(
      model,
      heldOutIndices.map((index) => examples[index]),
      parameters,
    );
    heldOutIndices.forEach((index, position) => (logits[index] = predicted[position]));
  }
  return logits;
}

/** Accuracy plus macro-F1: the two figures the targets are stated in, weighted equally. */
function objective(report: { accuracy: number; macroF1: number }): number {
  return report.accuracy + report.macroF1;
}

function bestNeutralOffset(logits: Float64Array[], examples: Example[]) {
  let best = { neutralOffset: 0, report: evaluate(logits, examples, 0) };
  for (const neutralOffset of NEUTRAL_OFFSETS) {
    const report = evaluate(logits, examples, neutralOffset);
    if (objective(report) > objective(best.report)) best = { neutralOffset, report };
  }
  return best;
}

/**
 * The fixed rule offset is the one choice that trades TFNS fit for transfer to the FPB (see
 * `choose`); the optimiser settings and feature scales were fixed beforehand by the same
 * cross-validation (docs/sentiment.md lists the variants tried).
 */
function grid(): HyperParameters[] {
  return [2, 3, 4, 5].map((ruleOffset) => ({
    scales: { word: 1, char: 0.5, rule: 1 },
    epochs: 6,
    learningRate: 0.05,
    l2: 0.01,
    ruleOffset,
  }));
}

interface Candidate {
  parameters: HyperParameters;
  neutralOffset: number;
  crossValidation: { accuracy: number; macroF1: number };
  fpbDevAccuracy: number;
}

/**
 * TFNS labels results reports and many company facts neutral where the FPB annotators saw good or
 * bad news, so the more a setting trusts the finance rules the better it transfers to the FPB and
 * the worse it fits TFNS. The chosen setting is the best by TFNS cross-validation among those that
 * keep this accuracy on the FPB AllAgree *dev* split (never its test split, and no FPB text ever
 * reaches the weights).
 */
const FPB_DEV_ACCURACY_FLOOR = 0.93;

function choose(candidates: Candidate[]): Candidate {
  const transferring = candidates.filter((candidate) => candidate.fpbDevAccuracy >= FPB_DEV_ACCURACY_FLOOR);
  const pool = transferring.length > 0 ? transferring : candidates;
  const rank = (candidate: Candidate): number =>
    transferring.length > 0 ? objective(candidate.crossValidation) : candidate.fpbDevAccuracy;
  return pool.reduce((best, candidate) => (rank(candidate) > rank(best) ? candidate : best));
}

function quantise(weights: Float32Array): { scale: number; base64: string } {
  let largest = 0;
  for (const weight of weights) largest = Math.max(largest, Math.abs(weight));
  const scale = largest / 32_767 || 1;
  const quantised = new Int16Array(weights.length);
  for (let index = 0; index < weights.length; index += 1)
    quantised[index] = Math.round(weights[index] / scale);
  return { scale, base64: Buffer.from(quantised.buffer).toString('base64') };
}

function main(): void {
  const dataDir = resolve(process.argv[2] ?? join(__dirname, '..', '..', 'shared', 'data', 'sentiment'));
  const trainPath = join(dataDir, 'tfns-train.tsv');
  const source = readFileSync(trainPath);
  const examples = readTrainingSet(trainPath);
  console.log(`TFNS train: ${examples.length} examples (${trainPath})`);

  const fpbDevPath = join(dataDir, 'fpb-allagree.tsv');
  const fpbDev = readTrainingSet(fpbDevPath, (columns) => columns[3] === 'dev');
  console.log(`FPB AllAgree dev (model selection only): ${fpbDev.length} examples`);

  const candidates: Candidate[] = [];
  for (const parameters of grid()) {
    const started = Date.now();
    const { neutralOffset, report } = bestNeutralOffset(crossValidatedLogits(examples, parameters), examples);
    const fullModel = train(examples, parameters, SEED);
    const fpbDevAccuracy = evaluate(predict(fullModel, fpbDev, parameters), fpbDev, neutralOffset).accuracy;
    candidates.push({ parameters, neutralOffset, crossValidation: report, fpbDevAccuracy });
    console.log(
      `${JSON.stringify(parameters)} neutralOffset=${neutralOffset.toFixed(1)}: TFNS cv accuracy ` +
        `${report.accuracy.toFixed(4)} macro-F1 ${report.macroF1.toFixed(4)}; FPB AllAgree dev accuracy ` +
        `${fpbDevAccuracy.toFixed(4)} (${Date.now() - started} ms)`,
    );
  }
  const best = choose(candidates);
  console.log(`chosen: ${JSON.stringify(best.parameters)} neutralOffset=${best.neutralOffset.toFixed(1)}`);

  const model = train(examples, best.parameters, SEED);
  const { scale, base64 } = quantise(model.weights);
  const file: SentimentModelFile = {
    format: 'hashed-logistic-regression/2',
    featureBits: FEATURE_BITS,
    scales: best.parameters.scales,
    bias: [...model.bias].map((value) => Number(value.toFixed(6))),
    neutralOffset: Number(best.neutralOffset.toFixed(2)),
    ruleOffset: best.parameters.ruleOffset,
    weightScale: scale,
    weights: base64,
    training: {
      script: 'scripts/train-sentiment.ts (npm run train:sentiment)',
      data: 'TFNS train split (zeroshot/twitter-financial-news-sentiment v1.0.0, MIT), tfns-train.tsv',
      dataSha256: createHash('sha256').update(source).digest('hex'),
      examples: examples.length,
      seed: SEED,
      hyperParameters: best.parameters,
      crossValidation: {
        folds: FOLDS,
        accuracy: Number(best.crossValidation.accuracy.toFixed(4)),
        macroF1: Number(best.crossValidation.macroF1.toFixed(4)),
      },
      selection: `best TFNS cross-validation among settings with FPB AllAgree dev accuracy >= ${FPB_DEV_ACCURACY_FLOOR}`,
      fpbAllAgreeDevAccuracy: Number(best.fpbDevAccuracy.toFixed(4)),
    },
  };
  writeFileSync(MODEL_PATH, `${JSON.stringify(file)}\n`);
  console.log(`wrote ${MODEL_PATH}`);
}

main();
