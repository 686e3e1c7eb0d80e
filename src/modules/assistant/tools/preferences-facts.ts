import type { PreferenceFields, Preferences } from '../../preferences';

/** The record as GET /preferences/ shows it: the model reads the same names the user sees. */
export interface PreferencesFacts extends PreferenceFields {
  id: number;
  user_id: number;
  onboarding_completed: boolean;
  onboarding_completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export function preferencesFacts(preferences: Preferences): PreferencesFacts {
  const { id, userId, onboardingCompleted, onboardingCompletedAt, createdAt, updatedAt, ...fields } =
    preferences;
  return {
    id,
    user_id: userId,
    ...fields,
    onboarding_completed: onboardingCompleted,
    onboarding_completed_at: onboardingCompletedAt,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}
