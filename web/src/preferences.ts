import type { Schemas } from '@investment-assistant/client';
import { api, ApiError, unwrap } from './api';

export type Preferences = Schemas['PreferencesResponse'];
export type PreferenceChoices = Schemas['PreferenceChoicesResponse'];
export type InformationSource = Schemas['InformationSourceDto'];

/** The wizard's steps in order, with every field each one takes (the API's WizardStepDataDto). */
export const PREFERENCE_STEPS = [
  {
    key: 'essential',
    title: 'Essentials',
    fields: ['experience_level', 'investment_style', 'risk_tolerance'],
  },
  { key: 'portfolio', title: 'Portfolio', fields: ['brokerage_platform', 'investment_types', 'watchlist'] },
  {
    key: 'information',
    title: 'Information',
    fields: ['analysis_depth', 'information_sources', 'market_sectors', 'geographic_focus'],
  },
  { key: 'communication', title: 'Communication', fields: ['daily_summary_time', 'alert_frequency'] },
  { key: 'advanced', title: 'Advanced', fields: ['esg_importance', 'explanation_style', 'privacy_level'] },
] as const;
export type PreferenceStep = (typeof PREFERENCE_STEPS)[number]['key'];
export type PreferenceField = (typeof PREFERENCE_STEPS)[number]['fields'][number];

export const PREFERENCE_LABELS: Record<PreferenceField, string> = {
  experience_level: 'Experience',
  investment_style: 'Investment style',
  risk_tolerance: 'Risk tolerance',
  brokerage_platform: 'Brokerage',
  investment_types: 'Investment types',
  watchlist: 'Watchlist (symbols, comma-separated)',
  analysis_depth: 'Depth of analysis',
  information_sources: 'Information sources',
  market_sectors: 'Market sectors',
  geographic_focus: 'Geographic focus',
  daily_summary_time: 'Daily summary',
  alert_frequency: 'Alerts',
  esg_importance: 'Importance of ESG',
  explanation_style: 'Explanations',
  privacy_level: 'Data shared with the assistant',
};

/** The fields that take several values: checkboxes rather than a single select. */
export const MULTI_CHOICE_FIELDS = new Set<PreferenceField>(['investment_types', 'market_sectors']);

/**
 * What a form holds for each field while it is edited: the API's value, except the watchlist,
 * kept as the text typed (`toPreferenceBody` splits it).
 */
export type PreferenceDraft = Partial<Record<PreferenceField, unknown>>;

/** The allowed values of a field, from `GET /preferences/choices`. */
export function choicesOf(choices: PreferenceChoices, field: PreferenceField): readonly string[] {
  if (field === 'brokerage_platform') return choices.brokerage_platforms;
  if (field === 'information_sources') return choices.information_source_types;
  if (field === 'watchlist') return [];
  return choices[field];
}

/** The value shown for `field`: the one being edited, else the saved record's (or the defaults'). */
export function draftValue(
  draft: PreferenceDraft,
  base: Record<string, unknown>,
  field: PreferenceField,
): unknown {
  if (field in draft) return draft[field];
  const saved = base[field];
  if (field === 'watchlist') return Array.isArray(saved) ? saved.join(', ') : '';
  return saved ?? (MULTI_CHOICE_FIELDS.has(field) || field === 'information_sources' ? [] : null);
}

/** The request body for `fields`, taken from the draft over `base`. */
export function toPreferenceBody(
  fields: readonly PreferenceField[],
  draft: PreferenceDraft,
  base: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = draftValue(draft, base, field);
    if (field === 'watchlist') {
      body.watchlist = String(value)
        .split(',')
        .map((symbol) => symbol.trim().toUpperCase())
        .filter(Boolean);
    } else if (value !== null && value !== '') body[field] = value;
    else if (field === 'brokerage_platform') body.brokerage_platform = null;
  }
  return body;
}

/** The caller's preferences, or null before the first save (404). */
export async function fetchPreferences(): Promise<Preferences | null> {
  try {
    return await unwrap(api.GET('/api/v1/preferences'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Saves some fields: a change of the record when there is one, else the wizard's steps (which
 * create it from the level's defaults), leaving the onboarding state as it is.
 */
export function savePreferences(body: Record<string, unknown>, exists: boolean): Promise<Preferences> {
  if (exists) return unwrap(api.PUT('/api/v1/preferences', { body }));
  const stepData: Record<string, Record<string, unknown>> = {};
  for (const step of PREFERENCE_STEPS) {
    for (const field of step.fields) {
      if (field in body) stepData[step.key] = { ...stepData[step.key], [field]: body[field] };
    }
  }
  return unwrap(api.POST('/api/v1/preferences/wizard', { body: { step_data: stepData, complete: false } }));
}

/** `consumer_discretionary` → `consumer discretionary`. */
export const humanize = (value: string) => value.replace(/_/g, ' ');
