import { ExperienceLevel, INVESTMENT_TYPES, MARKET_SECTORS, PreferenceFields } from './preference-values';

/** The default of every field but the level itself. */
export type LevelDefaults = Omit<PreferenceFields, 'experience_level'>;

/**
 * The default preferences of each experience level: beginner is the spec's table; intermediate
 * and advanced fill in the fields the spec leaves open (see the README). The defaults endpoint,
 * POST for absent fields, the wizard and or-create all start from this one table.
 */
const LEVEL_DEFAULTS: Readonly<Record<ExperienceLevel, LevelDefaults>> = {
  beginner: {
    investment_style: 'long-term',
    risk_tolerance: 'conservative',
    brokerage_platform: null,
    investment_types: ['stocks', 'etfs'],
    analysis_depth: 'simple',
    information_sources: [
      { type: 'news', priority: 1 },
      { type: 'earnings', priority: 2 },
      { type: 'analyst', priority: 3 },
    ],
    market_sectors: ['technology', 'healthcare', 'finance'],
    geographic_focus: 'us',
    daily_summary_time: 'evening',
    alert_frequency: 'daily',
    esg_importance: 'unsure',
    explanation_style: 'step-by-step',
    watchlist: [],
    privacy_level: 'full',
  },
  intermediate: {
    investment_style: 'long-term',
    risk_tolerance: 'moderate',
    brokerage_platform: null,
    investment_types: ['stocks', 'etfs', 'options'],
    analysis_depth: 'detailed',
    information_sources: [
      { type: 'news', priority: 1 },
      { type: 'earnings', priority: 2 },
      { type: 'analyst', priority: 3 },
      { type: 'technical', priority: 4 },
    ],
    market_sectors: ['technology', 'healthcare', 'finance', 'energy', 'consumer_discretionary'],
    geographic_focus: 'us-international',
    daily_summary_time: 'morning',
    alert_frequency: 'daily',
    esg_importance: 'unsure',
    explanation_style: 'key-points',
    watchlist: [],
    privacy_level: 'full',
  },
  advanced: {
    investment_style: 'active',
    risk_tolerance: 'aggressive',
    brokerage_platform: null,
    investment_types: [...INVESTMENT_TYPES],
    analysis_depth: 'technical',
    information_sources: [
      { type: 'technical', priority: 1 },
      { type: 'earnings', priority: 2 },
      { type: 'news', priority: 3 },
      { type: 'analyst', priority: 4 },
      { type: 'economic', priority: 5 },
      { type: 'social', priority: 6 },
    ],
    market_sectors: [...MARKET_SECTORS],
    geographic_focus: 'global',
    daily_summary_time: 'morning',
    alert_frequency: 'real-time',
    esg_importance: 'unsure',
    explanation_style: 'bottom-line-first',
    watchlist: [],
    privacy_level: 'full',
  },
};

/** A fresh copy of the level's default fields, safe for the caller to modify. */
export function levelDefaults(level: ExperienceLevel): LevelDefaults {
  return structuredClone(LEVEL_DEFAULTS[level]);
}

/** A complete set of preferences for a new record at that level. */
export function defaultsForLevel(level: ExperienceLevel): PreferenceFields {
  return { experience_level: level, ...levelDefaults(level) };
}
