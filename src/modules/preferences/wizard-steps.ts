import { PreferenceFields } from './preference-values';

/** Which preference fields each onboarding wizard step may set; no field belongs to two steps. */
export const WIZARD_STEP_FIELDS = {
  essential: ['experience_level', 'investment_style', 'risk_tolerance'],
  portfolio: ['investment_types', 'brokerage_platform', 'watchlist'],
  information: ['analysis_depth', 'information_sources', 'market_sectors', 'geographic_focus'],
  communication: ['daily_summary_time', 'alert_frequency'],
  advanced: ['esg_importance', 'explanation_style', 'privacy_level'],
} as const satisfies Record<string, readonly (keyof PreferenceFields)[]>;

type WizardStepName = keyof typeof WIZARD_STEP_FIELDS;
const WIZARD_STEP_NAMES = Object.keys(WIZARD_STEP_FIELDS) as WizardStepName[];

export type WizardStepData = Partial<Record<WizardStepName, Partial<PreferenceFields>>>;

/**
 * Paths inside `step_data` that are not allowed: a key naming no step, or a field sent in a step
 * it does not belong to. Checked on the raw body, before unknown keys could be dropped; a step
 * whose value is not an object is left to the type checks.
 */
export function findMisplacedWizardKeys(stepData: Record<string, unknown>): string[][] {
  return Object.entries(stepData).flatMap(([stepName, fields]) => {
    if (!isWizardStepName(stepName)) return [[stepName]];
    if (!isPlainObject(fields)) return [];
    const allowed: readonly string[] = WIZARD_STEP_FIELDS[stepName];
    return Object.keys(fields)
      .filter((field) => !allowed.includes(field))
      .map((field) => [stepName, field]);
  });
}

/** The fields set by all steps together; a field left undefined in a step is not a change. */
export function mergeWizardSteps(stepData: WizardStepData): Partial<PreferenceFields> {
  const entries = WIZARD_STEP_NAMES.flatMap((stepName) => Object.entries(stepData[stepName] ?? {}));
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

function isWizardStepName(value: string): value is WizardStepName {
  return Object.hasOwn(WIZARD_STEP_FIELDS, value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The wizard body once validated. */
export interface WizardRequest {
  step_data: WizardStepData;
  complete?: boolean;
}
