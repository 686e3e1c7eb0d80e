import { UserPreferencesEntity } from './entities/user-preferences.entity';
import { PreferenceChanges, PreferenceFields } from './preference-values';

type PreferenceColumns = Pick<UserPreferencesEntity, (typeof ENTITY_PROPERTY)[keyof typeof ENTITY_PROPERTY]>;

/** Wire name → entity property, for every user-settable field. */
const ENTITY_PROPERTY = {
  experience_level: 'experienceLevel',
  investment_style: 'investmentStyle',
  risk_tolerance: 'riskTolerance',
  brokerage_platform: 'brokeragePlatform',
  investment_types: 'investmentTypes',
  analysis_depth: 'analysisDepth',
  information_sources: 'informationSources',
  market_sectors: 'marketSectors',
  geographic_focus: 'geographicFocus',
  daily_summary_time: 'dailySummaryTime',
  alert_frequency: 'alertFrequency',
  esg_importance: 'esgImportance',
  explanation_style: 'explanationStyle',
  watchlist: 'watchlist',
  privacy_level: 'privacyLevel',
} as const satisfies { [K in keyof PreferenceFields]: keyof UserPreferencesEntity };

/**
 * The entity columns for the fields that are set; an undefined field is no change. Arrays are
 * copied as plain data so DTO instances never reach the database layer.
 */
export function toColumns(changes: PreferenceChanges): Partial<PreferenceColumns> {
  const columns: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(ENTITY_PROPERTY)) {
    const value = changes[field as keyof PreferenceFields];
    if (value !== undefined) columns[property] = plainData(value);
  }
  return columns as Partial<PreferenceColumns>;
}

export function toAllColumns(fields: PreferenceFields): PreferenceColumns {
  return toColumns(fields) as PreferenceColumns;
}

function plainData(value: unknown): unknown {
  return Array.isArray(value)
    ? value.map((item: unknown) => (typeof item === 'object' ? { ...item } : item))
    : value;
}
