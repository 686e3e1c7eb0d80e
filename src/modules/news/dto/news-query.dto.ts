import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { BooleanQueryField, LimitField, SearchQueryField } from '../../../common/validation/query-fields';
import type { SentimentLabel } from '../sentiment/sentiment.label';

export const SENTIMENT_LABELS: SentimentLabel[] = ['positive', 'negative', 'neutral'];
export const MAX_NEWS_LIMIT = 50;
export const MAX_STOCK_NEWS_LIMIT = 20;
export const MAX_SENTIMENT_TEXTS = 100;
const SYMBOL_PATTERN = /^\^?[A-Za-z0-9][A-Za-z0-9.-]{0,9}$/;

/** Trimmed; an empty value is treated as absent. */
const trimmedOrAbsent = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};

export class MarketNewsQuery {
  @LimitField({ default: 10, max: MAX_NEWS_LIMIT })
  limit: number = 10;

  @ApiPropertyOptional({
    example: 'AAPL',
    description: 'Only news about this ticker (any case; BRK.B or BRK-B)',
  })
  @IsOptional()
  @Transform(trimmedOrAbsent)
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol?: string;

  @ApiPropertyOptional({
    example: 'earnings, dividend',
    description:
      'Comma-separated alternatives; an article matches one when it contains all of its words (case-insensitive, word prefixes)',
  })
  @IsOptional()
  @Transform(trimmedOrAbsent)
  @IsString()
  @MaxLength(200)
  keywords?: string;
}

export class NewsListQuery extends MarketNewsQuery {
  @ApiPropertyOptional({ enum: SENTIMENT_LABELS })
  @IsOptional()
  @Transform(trimmedOrAbsent)
  @IsIn(SENTIMENT_LABELS)
  sentiment?: SentimentLabel;

  @ApiPropertyOptional({
    example: '2026-11-16',
    description: 'Published at or after: a date (from the start of that UTC day) or an ISO 8601 instant',
  })
  @IsOptional()
  @Transform(trimmedOrAbsent)
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-20',
    description: 'Published at or before: a date (to the end of that UTC day) or an ISO 8601 instant',
  })
  @IsOptional()
  @Transform(trimmedOrAbsent)
  @IsISO8601({ strict: true })
  to?: string;
}

export class NewsSearchQuery {
  @SearchQueryField({
    maxLength: 200,
    description: 'All its words must appear (case-insensitive, word prefixes)',
  })
  query: string;

  @LimitField({ default: 10, max: MAX_NEWS_LIMIT })
  limit: number = 10;
}

export class StockNewsQuery {
  @LimitField({ default: 5, max: MAX_STOCK_NEWS_LIMIT })
  limit: number = 5;
}

export class SentimentRequest {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_SENTIMENT_TEXTS,
    example: ['Quarterly profit rose 12%, beating estimates.', 'The lender cut its dividend.'],
    description: `1 to ${MAX_SENTIMENT_TEXTS} texts of at most 5,000 characters each`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SENTIMENT_TEXTS)
  /** Element types and lengths are checked by NewsService.scoreTexts, which reports each by index. */
  texts: unknown[];
}

export class SentimentScoreQuery {
  @BooleanQueryField({
    description: 'Add to each result the features that moved its score most (`explanation`)',
  })
  explain: boolean = false;
}
