import { PreferencesResponse } from './dto/preferences.response';
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

function toPreferenceFields(entity: UserPreferencesEntity): PreferenceFields {
  return {
    experience_level: entity.experienceLevel,
    investment_style: entity.investmentStyle,
    risk_tolerance: entity.riskTolerance,
    brokerage_platform: entity.brokeragePlatform,
    investment_types: entity.investmentTypes,
    analysis_depth: entity.analysisDepth,
    information_sources: entity.informationSources.map(({ type, priority }) => ({ type, priority })),
    market_sectors: entity.marketSectors,
    geographic_focus: entity.geographicFocus,
    daily_summary_time: entity.dailySummaryTime,
    alert_frequency: entity.alertFrequency,
    esg_importance: entity.esgImportance,
    explanation_style: entity.explanationStyle,
    watchlist: entity.watchlist,
    privacy_level: entity.privacyLevel,
  };
}

export function toPreferencesResponse(entity: UserPreferencesEntity): PreferencesResponse {
  return {
    id: entity.id,
    user_id: entity.userId,
    ...toPreferenceFields(entity),
    onboarding_completed: entity.onboardingCompleted,
    onboarding_completed_at: entity.onboardingCompletedAt?.toISOString() ?? null,
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
  };
}

function plainData(value: unknown): unknown {
  return Array.isArray(value)
    ? value.map((item: unknown) => (typeof item === 'object' ? { ...item } : item))
    : value;
}
