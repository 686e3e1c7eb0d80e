import { ApiProperty } from '@nestjs/swagger';
import {
  ALERT_FREQUENCIES,
  ANALYSIS_DEPTHS,
  BROKERAGE_PLATFORMS,
  DAILY_SUMMARY_TIMES,
  ESG_IMPORTANCES,
  EXPERIENCE_LEVELS,
  EXPLANATION_STYLES,
  GEOGRAPHIC_FOCUSES,
  INFORMATION_SOURCE_TYPES,
  INVESTMENT_STYLES,
  INVESTMENT_TYPES,
  MARKET_SECTORS,
  PREFERENCE_CHOICES,
  PRIVACY_LEVELS,
  RISK_TOLERANCES,
} from '../preference-values';

type Choices = { [K in keyof typeof PREFERENCE_CHOICES]: readonly string[] };

function AllowedValues(values: readonly string[]) {
  return ApiProperty({ enum: values, isArray: true, example: values });
}

/** The allowed values of every enumerated preference field. */
export class PreferenceChoicesResponse implements Choices {
  @AllowedValues(EXPERIENCE_LEVELS)
  experience_level: readonly string[];

  @AllowedValues(INVESTMENT_STYLES)
  investment_style: readonly string[];

  @AllowedValues(RISK_TOLERANCES)
  risk_tolerance: readonly string[];

  @AllowedValues(INVESTMENT_TYPES)
  investment_types: readonly string[];

  @AllowedValues(ANALYSIS_DEPTHS)
  analysis_depth: readonly string[];

  @AllowedValues(MARKET_SECTORS)
  market_sectors: readonly string[];

  @AllowedValues(GEOGRAPHIC_FOCUSES)
  geographic_focus: readonly string[];

  @AllowedValues(DAILY_SUMMARY_TIMES)
  daily_summary_time: readonly string[];

  @AllowedValues(ALERT_FREQUENCIES)
  alert_frequency: readonly string[];

  @AllowedValues(ESG_IMPORTANCES)
  esg_importance: readonly string[];

  @AllowedValues(EXPLANATION_STYLES)
  explanation_style: readonly string[];

  @AllowedValues(PRIVACY_LEVELS)
  privacy_level: readonly string[];

  @AllowedValues(INFORMATION_SOURCE_TYPES)
  information_source_types: readonly string[];

  @AllowedValues(BROKERAGE_PLATFORMS)
  brokerage_platforms: readonly string[];
}
