// Evaluates the sentiment engine on the Financial PhraseBank files in ../shared/data/sentiment/
// (beside the repository): accuracy, macro-F1 and the confusion matrix per file and split.
// The data is CC BY-NC-SA and is only read from there, never copied into the repository.
// Run: npm run eval:sentiment [dataDir]
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SentimentEngine } from '../src/modules/news/sentiment/sentiment.engine';
import { SentimentLabel } from '../src/modules/news/sentiment/sentiment.label';
import {
  ClassificationReport,
  SENTIMENT_LABELS,
  classificationReport,
} from '../src/modules/news/sentiment/sentiment.metrics';

const FILES = ['fpb-allagree.tsv', 'fpb-75agree.tsv'];
const SPLITS = ['dev', 'test'];

interface Example {
  gold: SentimentLabel;
  sentence: string;
  split: string;
}

function isLabel(value: string): value is SentimentLabel {
  return (SENTIMENT_LABELS as readonly string[]).includes(value);
}

function readExamples(path: string): Example[] {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n');
  if (header.trim() !== 'id\tlabel\tsentence\tsplit')
    throw new Error(`${path}: unexpected header "${header}"`);
  return lines
    .filter((line) => line.length > 0)
    .map((line) => {
      const [, label, sentence, split] = line.split('\t');
      if (!isLabel(label)) throw new Error(`${path}: unknown label "${label}"`);
      return { gold: label, sentence, split };
    });
}

function formatMatrix(report: ClassificationReport): string {
  const header = `    gold \\ predicted  ${SENTIMENT_LABELS.map((label) => label.padStart(9)).join('')}`;
  const rows = SENTIMENT_LABELS.map(
    (gold) =>
      `    ${gold.padEnd(19)}${SENTIMENT_LABELS.map((predicted) => String(report.confusion[gold][predicted]).padStart(9)).join('')}`,
  );
  return [header, ...rows].join('\n');
}

function main(): void {
  const dataDir = resolve(process.argv[2] ?? join(__dirname, '..', '..', 'shared', 'data', 'sentiment'));
  const present = FILES.filter((file) => existsSync(join(dataDir, file)));
  if (present.length === 0) {
    console.log(`Sentiment evaluation skipped: no Financial PhraseBank files in ${dataDir}.`);
    return;
  }
  const engine = new SentimentEngine();
  const summary: string[] = ['| file | split | n | accuracy | macro-F1 |', '| --- | --- | --- | --- | --- |'];
  for (const file of present) {
    const examples = readExamples(join(dataDir, file));
    for (const split of SPLITS) {
      const scored = examples
        .filter((example) => example.split === split)
        .map((example) => ({ gold: example.gold, predicted: engine.score(example.sentence).sentiment }));
      const report = classificationReport(scored);
      console.log(
        `\n${file} ${split}: n=${report.count} accuracy=${report.accuracy.toFixed(4)} macro-F1=${report.macroF1.toFixed(4)}` +
          ` (F1 positive ${report.f1.positive.toFixed(3)}, negative ${report.f1.negative.toFixed(3)}, neutral ${report.f1.neutral.toFixed(3)})`,
      );
      console.log(formatMatrix(report));
      summary.push(
        `| ${file} | ${split} | ${report.count} | ${report.accuracy.toFixed(3)} | ${report.macroF1.toFixed(3)} |`,
      );
    }
  }
  for (const file of FILES.filter((name) => !present.includes(name)))
    console.log(`\n${file}: absent, skipped.`);
  console.log(`\n${summary.join('\n')}`);
}

main();
