import { UserPreferencesEntity } from './entities/user-preferences.entity';
import { PreferenceFields } from './preference-values';

/**
 * One user's stored preferences. Times are ISO 8601 strings because the record is cached, and the
 * cache may carry it through Redis as JSON.
 */
export interface Preferences extends PreferenceFields {
  id: number;
  userId: number;
  onboardingCompleted: boolean;
  onboardingCompletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toPreferences(entity: UserPreferencesEntity): Preferences {
  return {
    id: entity.id,
    userId: entity.userId,
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
    onboardingCompleted: entity.onboardingCompleted,
    onboardingCompletedAt: entity.onboardingCompletedAt?.toISOString() ?? null,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
