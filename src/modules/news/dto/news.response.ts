import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ExplainedSentiment, NewsItem } from '../news.types';
import type { SocialSentiment } from '../../../integrations/vendors';
import { SentimentLabel, toSentimentResult } from '../sentiment/sentiment.label';
import { SENTIMENT_LABELS } from './news-query.dto';

const sentimentLabelProperty = ApiProperty({
  enum: SENTIMENT_LABELS,
  example: 'positive',
  description: '≥ 0.1 positive, ≤ -0.1 negative',
});

export class SentimentFeatureResponse {
  @ApiProperty({
    example: 'upgraded to',
    description: 'A word, word pair, "character n-gram", or rule evidence',
  })
  feature: string;

  @ApiProperty({
    example: 0.8731,
    description:
      'What the feature added to the positive logit minus the negative one: > 0 pushes towards positive',
  })
  contribution: number;
}

export class SentimentScoreResponse {
  @sentimentLabelProperty
  sentiment: SentimentLabel;

  @ApiProperty({
    minimum: -1,
    maximum: 1,
    example: 0.6124,
    description: "The model's P(positive) − P(negative)",
  })
  sentimentScore: number;

  @ApiPropertyOptional({
    type: [SentimentFeatureResponse],
    description: 'Only with `explain=true`: the features that moved the score most, strongest first',
  })
  explanation?: SentimentFeatureResponse[];

  static from(result: ExplainedSentiment): SentimentScoreResponse {
    const response: SentimentScoreResponse = {
      sentiment: result.sentiment,
      sentimentScore: result.sentimentScore,
    };
    if (result.explanation !== undefined) {
      response.explanation = result.explanation.map(({ feature, contribution }) => ({
        feature,
        contribution: Math.round(contribution * 10_000) / 10_000,
      }));
    }
    return response;
  }
}

export class NewsItemResponse {
  @ApiProperty({ example: 'Tyson Foods stock climbs 9.9% to close at $57.10' })
  title: string;

  @ApiProperty({
    example: 'Shares of Tyson Foods closed at $57.10, up $5.15 (9.91%) from the previous close of $51.95.',
  })
  description: string;

  @ApiProperty({ example: 'http://localhost:8000/api/v1/news/items/20261118-gainer-tsn' })
  url: string;

  @ApiProperty({ example: 'Market Replay Wire', description: 'Publisher name' })
  source: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-18T21:20:00.000Z' })
  publishedAt: string;

  @sentimentLabelProperty
  sentiment: SentimentLabel;

  @ApiProperty({
    minimum: -1,
    maximum: 1,
    example: 0.964,
    description: 'From -1.0 (very negative) to 1.0 (very positive)',
  })
  sentimentScore: number;

  static from(item: NewsItem): NewsItemResponse {
    return {
      title: item.title,
      description: item.description,
      url: item.url,
      source: item.source,
      publishedAt: item.publishedAt,
      sentiment: item.sentiment,
      sentimentScore: item.sentimentScore,
    };
  }
}

export class SocialSentimentResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 412, description: 'Posts mentioning the symbol in the window' })
  mentions: number;

  @ApiProperty({ example: 250 })
  positiveMentions: number;

  @ApiProperty({ example: 98 })
  negativeMentions: number;

  @ApiProperty({ minimum: -1, maximum: 1, example: 0.2143, description: 'Mention-weighted mean score' })
  score: number;

  @ApiProperty({ enum: SENTIMENT_LABELS, description: 'The score in the news bands' })
  sentiment: SentimentLabel;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  from: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  to: string | null;

  static from(social: SocialSentiment): SocialSentimentResponse {
    const { sentiment, sentimentScore } = toSentimentResult(social.score);
    return {
      symbol: social.symbol,
      mentions: social.mentions,
      positiveMentions: social.positiveMentions,
      negativeMentions: social.negativeMentions,
      score: sentimentScore,
      sentiment,
      from: social.from,
      to: social.to,
    };
  }
}
