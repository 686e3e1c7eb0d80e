/**
 * The allowed values of every preference field, exactly as the spec lists them. Validators,
 * the `choices` endpoint, the level defaults and Swagger all read these arrays, so adding a
 * value here is the only change needed to accept it everywhere.
 */
export const EXPERIENCE_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export const INVESTMENT_STYLES = ['long-term', 'active', 'swing', 'day'] as const;
export const RISK_TOLERANCES = ['conservative', 'moderate', 'aggressive'] as const;
export const BROKERAGE_PLATFORMS = [
  'robinhood',
  'fidelity',
  'charles_schwab',
  'td_ameritrade',
  'e_trade',
  'interactive_brokers',
  'webull',
  'vanguard',
  'merrill_edge',
  'other',
] as const;
export const INVESTMENT_TYPES = [
  'stocks',
  'etfs',
  'mutual_funds',
  'bonds',
  'options',
  'futures',
  'crypto',
  'real_estate',
] as const;
export const ANALYSIS_DEPTHS = ['simple', 'detailed', 'technical'] as const;
export const INFORMATION_SOURCE_TYPES = [
  'earnings',
  'news',
  'analyst',
  'social',
  'technical',
  'economic',
] as const;
export const MARKET_SECTORS = [
  'technology',
  'healthcare',
  'finance',
  'energy',
  'consumer_discretionary',
  'consumer_staples',
  'industrials',
  'materials',
  'utilities',
  'real_estate',
  'telecommunications',
] as const;
export const GEOGRAPHIC_FOCUSES = ['us', 'us-international', 'global'] as const;
export const DAILY_SUMMARY_TIMES = ['morning', 'lunch', 'evening', 'night', 'convenient'] as const;
export const ALERT_FREQUENCIES = ['real-time', 'hourly', 'daily', 'weekly'] as const;
export const ESG_IMPORTANCES = ['very', 'somewhat', 'not', 'unsure'] as const;
export const EXPLANATION_STYLES = ['step-by-step', 'key-points', 'bottom-line-first'] as const;
export const PRIVACY_LEVELS = ['full', 'limited', 'minimal'] as const;

export const INFORMATION_SOURCE_PRIORITY = { min: 1, max: 6 } as const;
export const WATCHLIST_MAX_SYMBOLS = 50;
/** 1 to 5 letters in either case; symbols are stored upper-cased. */
export const TICKER_PATTERN = /^[A-Za-z]{1,5}$/;

export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];
export type InvestmentStyle = (typeof INVESTMENT_STYLES)[number];
export type RiskTolerance = (typeof RISK_TOLERANCES)[number];
export type BrokeragePlatform = (typeof BROKERAGE_PLATFORMS)[number];
export type InvestmentType = (typeof INVESTMENT_TYPES)[number];
export type AnalysisDepth = (typeof ANALYSIS_DEPTHS)[number];
export type InformationSourceType = (typeof INFORMATION_SOURCE_TYPES)[number];
export type MarketSector = (typeof MARKET_SECTORS)[number];
export type GeographicFocus = (typeof GEOGRAPHIC_FOCUSES)[number];
export type DailySummaryTime = (typeof DAILY_SUMMARY_TIMES)[number];
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export type EsgImportance = (typeof ESG_IMPORTANCES)[number];
export type ExplanationStyle = (typeof EXPLANATION_STYLES)[number];
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

export interface InformationSource {
  type: InformationSourceType;
  priority: number;
}

/** Every user-settable preference field, under its wire name. */
export interface PreferenceFields {
  experience_level: ExperienceLevel;
  investment_style: InvestmentStyle;
  risk_tolerance: RiskTolerance;
  brokerage_platform: BrokeragePlatform | null;
  investment_types: InvestmentType[];
  analysis_depth: AnalysisDepth;
  information_sources: InformationSource[];
  market_sectors: MarketSector[];
  geographic_focus: GeographicFocus;
  daily_summary_time: DailySummaryTime;
  alert_frequency: AlertFrequency;
  esg_importance: EsgImportance;
  explanation_style: ExplanationStyle;
  watchlist: string[];
  privacy_level: PrivacyLevel;
}

export type PreferenceChanges = Partial<PreferenceFields>;

export function isExperienceLevel(value: string): value is ExperienceLevel {
  return (EXPERIENCE_LEVELS as readonly string[]).includes(value);
}

/** The body of GET /preferences/choices: every enumeration under the key the spec names. */
export const PREFERENCE_CHOICES = {
  experience_level: EXPERIENCE_LEVELS,
  investment_style: INVESTMENT_STYLES,
  risk_tolerance: RISK_TOLERANCES,
  investment_types: INVESTMENT_TYPES,
  analysis_depth: ANALYSIS_DEPTHS,
  market_sectors: MARKET_SECTORS,
  geographic_focus: GEOGRAPHIC_FOCUSES,
  daily_summary_time: DAILY_SUMMARY_TIMES,
  alert_frequency: ALERT_FREQUENCIES,
  esg_importance: ESG_IMPORTANCES,
  explanation_style: EXPLANATION_STYLES,
  privacy_level: PRIVACY_LEVELS,
  information_source_types: INFORMATION_SOURCE_TYPES,
  brokerage_platforms: BROKERAGE_PLATFORMS,
} as const;
