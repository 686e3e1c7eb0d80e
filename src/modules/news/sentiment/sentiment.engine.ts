import { Injectable } from '@nestjs/common';
import { SentimentResult, toSentimentResult } from './sentiment.label';
import { articleSentimentScore, sentimentScore } from './sentiment.scorer';

/** The finance-aware sentiment engine behind every news item and the client-facing scoring route. */
@Injectable()
export class SentimentEngine {
  score(text: string): SentimentResult {
    return toSentimentResult(sentimentScore(text));
  }

  scoreArticle(title: string, description?: string | null): SentimentResult {
    return toSentimentResult(articleSentimentScore(title, description));
  }
}
