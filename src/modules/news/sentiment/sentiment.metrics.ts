import { SentimentLabel } from './sentiment.label';

export const SENTIMENT_LABELS: readonly SentimentLabel[] = ['positive', 'negative', 'neutral'];

/** confusion[gold][predicted] = count. */
export type ConfusionMatrix = Record<SentimentLabel, Record<SentimentLabel, number>>;

export interface ClassificationReport {
  count: number;
  accuracy: number;
  macroF1: number;
  f1: Record<SentimentLabel, number>;
  confusion: ConfusionMatrix;
}

export function emptyConfusion(): ConfusionMatrix {
  const row = (): Record<SentimentLabel, number> => ({ positive: 0, negative: 0, neutral: 0 });
  return { positive: row(), negative: row(), neutral: row() };
}

/** Accuracy, per-class F1 and their unweighted mean over the three labels (macro-F1). */
export function classificationReport(
  pairs: readonly { gold: SentimentLabel; predicted: SentimentLabel }[],
): ClassificationReport {
  const confusion = emptyConfusion();
  for (const { gold, predicted } of pairs) confusion[gold][predicted] += 1;
  let correct = 0;
  const f1 = { positive: 0, negative: 0, neutral: 0 };
  for (const label of SENTIMENT_LABELS) {
    const truePositives = confusion[label][label];
    correct += truePositives;
    let predictedAs = 0;
    let actually = 0;
    for (const other of SENTIMENT_LABELS) {
      predictedAs += confusion[other][label];
      actually += confusion[label][other];
    }
    const precision = predictedAs === 0 ? 0 : truePositives / predictedAs;
    const recall = actually === 0 ? 0 : truePositives / actually;
    f1[label] = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  }
  const macroF1 = (f1.positive + f1.negative + f1.neutral) / SENTIMENT_LABELS.length;
  return {
    count: pairs.length,
    accuracy: pairs.length === 0 ? 0 : correct / pairs.length,
    macroF1,
    f1,
    confusion,
  };
}
