import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SentimentResult, toSentimentResult } from './sentiment.label';
import {
  ClassProbabilities,
  FeatureContribution,
  LinearSentimentModel,
  SentimentModelFile,
  WeightedText,
} from './sentiment.model';

/** An article is read as one document: next to a title, its description's features count at this weight. */
const DESCRIPTION_WEIGHT = 0.6;
const MODEL_PATH = join(__dirname, 'model', 'sentiment-model.json');

let sharedModel: LinearSentimentModel | undefined;

/** The committed model, read once per process. */
export function loadSentimentModel(): LinearSentimentModel {
  sharedModel ??= LinearSentimentModel.fromFile(
    JSON.parse(readFileSync(MODEL_PATH, 'utf8')) as SentimentModelFile,
  );
  return sharedModel;
}

function hasWords(text: string | null | undefined): text is string {
  return text !== null && text !== undefined && /[\p{L}\p{N}]/u.test(text);
}

/**
 * The news sentiment engine behind every news item and the client-facing scoring route: the trained
 * model's probability margin P(positive) − P(negative), labelled by the spec's ±0.1 bands. A text
 * without a word or number is neutral 0.
 */
@Injectable()
export class SentimentEngine {
  private readonly model = loadSentimentModel();

  score(text: string): SentimentResult {
    return this.scoreParts(hasWords(text) ? [{ text, weight: 1 }] : []);
  }

  scoreArticle(title: string, description?: string | null): SentimentResult {
    const parts: WeightedText[] = [];
    if (hasWords(title)) parts.push({ text: title, weight: 1 });
    if (hasWords(description))
      parts.push({ text: description, weight: parts.length > 0 ? DESCRIPTION_WEIGHT : 1 });
    return this.scoreParts(parts);
  }

  /** The features that moved the score most, strongest first; positive values push towards positive. */
  explain(text: string, limit: number): FeatureContribution[] {
    return hasWords(text) ? this.model.explain(text, limit) : [];
  }

  /** The margin P(positive) − P(negative) of the parts read as one document; nothing to read is 0. */
  private scoreParts(parts: WeightedText[]): SentimentResult {
    if (parts.length === 0) return toSentimentResult(0);
    const probabilities: ClassProbabilities = this.model.probabilities(parts);
    return toSentimentResult(probabilities.positive - probabilities.negative);
  }
}
