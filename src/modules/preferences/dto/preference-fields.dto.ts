import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { UniqueItems } from '../../../common/validation/unique-items';
import {
  ALERT_FREQUENCIES,
  ANALYSIS_DEPTHS,
  AlertFrequency,
  AnalysisDepth,
  BROKERAGE_PLATFORMS,
  BrokeragePlatform,
  DAILY_SUMMARY_TIMES,
  DailySummaryTime,
  ESG_IMPORTANCES,
  EXPERIENCE_LEVELS,
  EXPLANATION_STYLES,
  EsgImportance,
  ExperienceLevel,
  ExplanationStyle,
  GEOGRAPHIC_FOCUSES,
  GeographicFocus,
  INFORMATION_SOURCE_TYPES,
  INVESTMENT_STYLES,
  INVESTMENT_TYPES,
  InvestmentStyle,
  InvestmentType,
  MARKET_SECTORS,
  MarketSector,
  PRIVACY_LEVELS,
  PreferenceFields,
  PrivacyLevel,
  RISK_TOLERANCES,
  RiskTolerance,
  TICKER_PATTERN,
  WATCHLIST_MAX_SYMBOLS,
} from '../preference-values';
import { InformationSourceDto } from './information-source.dto';

function OneOf(values: readonly string[], enumName: string) {
  return applyDecorators(ApiProperty({ enum: values, enumName }), IsIn(values));
}

/** A set of choices: each at most once, so never more entries than choices (checked first). */
function SetOf(values: readonly string[], enumName: string) {
  return applyDecorators(
    ApiProperty({ enum: values, enumName, isArray: true, uniqueItems: true, maxItems: values.length }),
    IsArray(),
    ArrayMaxSize(values.length),
    IsIn(values, { each: true }),
    UniqueItems(),
  );
}

function upperCaseSymbols({ value }: { value: unknown }): unknown {
  return Array.isArray(value)
    ? value.map((entry: unknown) => (typeof entry === 'string' ? entry.toUpperCase() : entry))
    : value;
}

/**
 * Every preference field with its validation rules and allowed values: the base that the
 * create, update, wizard, defaults and full record schemas derive from.
 */
export class PreferenceFieldsDto implements PreferenceFields {
  @OneOf(EXPERIENCE_LEVELS, 'ExperienceLevel')
  experience_level: ExperienceLevel;

  @OneOf(INVESTMENT_STYLES, 'InvestmentStyle')
  investment_style: InvestmentStyle;

  @OneOf(RISK_TOLERANCES, 'RiskTolerance')
  risk_tolerance: RiskTolerance;

  @ApiProperty({ enum: BROKERAGE_PLATFORMS, enumName: 'BrokeragePlatform', nullable: true })
  @IsOptional()
  @IsIn(BROKERAGE_PLATFORMS)
  brokerage_platform: BrokeragePlatform | null;

  @SetOf(INVESTMENT_TYPES, 'InvestmentType')
  investment_types: InvestmentType[];

  @OneOf(ANALYSIS_DEPTHS, 'AnalysisDepth')
  analysis_depth: AnalysisDepth;

  @ApiProperty({
    type: () => InformationSourceDto,
    isArray: true,
    maxItems: INFORMATION_SOURCE_TYPES.length,
    description: 'Each type at most once; priorities unique',
  })
  @IsArray()
  @ArrayMaxSize(INFORMATION_SOURCE_TYPES.length)
  @ValidateNested({ each: true })
  @Type(() => InformationSourceDto)
  information_sources: InformationSourceDto[];

  @SetOf(MARKET_SECTORS, 'MarketSector')
  market_sectors: MarketSector[];

  @OneOf(GEOGRAPHIC_FOCUSES, 'GeographicFocus')
  geographic_focus: GeographicFocus;

  @OneOf(DAILY_SUMMARY_TIMES, 'DailySummaryTime')
  daily_summary_time: DailySummaryTime;

  @OneOf(ALERT_FREQUENCIES, 'AlertFrequency')
  alert_frequency: AlertFrequency;

  @OneOf(ESG_IMPORTANCES, 'EsgImportance')
  esg_importance: EsgImportance;

  @OneOf(EXPLANATION_STYLES, 'ExplanationStyle')
  explanation_style: ExplanationStyle;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: TICKER_PATTERN.source },
    maxItems: WATCHLIST_MAX_SYMBOLS,
    uniqueItems: true,
    description: 'Ticker symbols of 1 to 5 letters, upper-cased on the way in, no duplicates',
    example: ['AAPL', 'MSFT'],
  })
  @Transform(upperCaseSymbols, { toClassOnly: true })
  @IsArray()
  @ArrayMaxSize(WATCHLIST_MAX_SYMBOLS)
  @IsString({ each: true })
  @Matches(TICKER_PATTERN, { each: true })
  @UniqueItems({ message: 'watchlist symbols must be unique' })
  watchlist: string[];

  @OneOf(PRIVACY_LEVELS, 'PrivacyLevel')
  privacy_level: PrivacyLevel;
}
