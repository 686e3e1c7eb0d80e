import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useEffect, useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { navigate } from '../router';

/** The wizard's steps in order, each with the single-choice fields it asks. */
const STEPS = [
  {
    key: 'essential',
    title: 'Essentials',
    fields: ['experience_level', 'investment_style', 'risk_tolerance'],
  },
  { key: 'portfolio', title: 'Portfolio', fields: ['watchlist'] },
  { key: 'information', title: 'Information', fields: ['analysis_depth', 'geographic_focus'] },
  { key: 'communication', title: 'Communication', fields: ['daily_summary_time', 'alert_frequency'] },
  { key: 'advanced', title: 'Advanced', fields: ['esg_importance', 'explanation_style', 'privacy_level'] },
] as const;
type StepKey = (typeof STEPS)[number]['key'];

const LABELS: Record<string, string> = {
  experience_level: 'Experience',
  investment_style: 'Investment style',
  risk_tolerance: 'Risk tolerance',
  watchlist: 'Watchlist (symbols, comma-separated)',
  analysis_depth: 'Depth of analysis',
  geographic_focus: 'Geographic focus',
  daily_summary_time: 'Daily summary',
  alert_frequency: 'Alerts',
  esg_importance: 'Importance of ESG',
  explanation_style: 'Explanations',
  privacy_level: 'Data shared with the assistant',
};
/** Where a person who left the wizard comes back to, in this tab. */
const STEP_KEY = 'onboarding-step';

/**
 * The preferences wizard: one step at a time, each saved as it is left (so leaving and coming back
 * resumes with what was chosen), every step skippable, prefilled with the saved record or the
 * defaults of the chosen experience level.
 */
export function OnboardingPage() {
  const [index, setIndex] = useState(() => Number(sessionStorage.getItem(STEP_KEY) ?? 0) || 0);
  const [values, setValues] = useState<Record<string, string>>({});
  const choices = useQuery({
    queryKey: ['preference-choices'],
    queryFn: () => unwrap(api.GET('/api/v1/preferences/choices')),
    staleTime: Infinity,
  });
  const saved = useQuery({
    queryKey: ['preferences'],
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/api/v1/preferences'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
  const level = values.experience_level ?? saved.data?.experience_level ?? 'beginner';
  const defaults = useQuery({
    queryKey: ['preference-defaults', level],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/preferences/defaults/{experience_level}', {
          params: { path: { experience_level: level as 'beginner' } },
        }),
      ),
    enabled: saved.data === null,
  });
  useEffect(() => sessionStorage.setItem(STEP_KEY, String(index)), [index]);

  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: { step: StepKey; fields: Record<string, unknown>; complete: boolean }) =>
      unwrap(
        api.POST('/api/v1/preferences/wizard', {
          body: { step_data: { [body.step]: body.fields }, complete: body.complete },
        }),
      ),
    onSuccess: (record) => queryClient.setQueryData(['preferences'], record),
  });

  if (!choices.data || saved.data === undefined) {
    const failed = choices.error ?? saved.error;
    return (
      <QueryStatus error={failed} retry={() => void (choices.error ? choices.refetch() : saved.refetch())} />
    );
  }
  const step = STEPS[Math.min(index, STEPS.length - 1)];
  const last = index >= STEPS.length - 1;
  const base = (saved.data ?? defaults.data ?? {}) as Record<string, unknown>;
  const valueOf = (field: string) =>
    values[field] ??
    (Array.isArray(base[field]) ? (base[field] as string[]).join(', ') : String(base[field] ?? ''));
  const options = choices.data as unknown as Record<string, string[]>;
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};

  const leave = () => {
    sessionStorage.removeItem(STEP_KEY);
    navigate('/dashboard');
  };
  const next = () => (last ? leave() : setIndex(index + 1));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, unknown> = {};
    for (const field of step.fields) {
      const value = valueOf(field);
      if (field === 'watchlist') {
        fields.watchlist = value
          .split(',')
          .map((symbol) => symbol.trim().toUpperCase())
          .filter(Boolean);
      } else if (value !== '') fields[field] = value;
    }
    save.mutate({ step: step.key, fields, complete: last }, { onSuccess: next });
  };

  return (
    <>
      <h1>Set up your preferences</h1>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((candidate, position) => (
          <li key={candidate.key} aria-current={position === index ? 'step' : undefined}>
            {candidate.title}
          </li>
        ))}
      </ol>
      <section className="card" aria-labelledby="step-heading">
        <h2 id="step-heading">
          Step {index + 1} of {STEPS.length}: {step.title}
        </h2>
        <form onSubmit={submit} noValidate>
          {step.fields.map((field) => {
            const id = `preference-${field}`;
            const error = fieldErrors[field];
            return (
              <div className="field" key={field}>
                <label htmlFor={id}>{LABELS[field]}</label>
                {field === 'watchlist' ? (
                  <input
                    id={id}
                    value={valueOf(field)}
                    onChange={(event) => setValues({ ...values, [field]: event.target.value })}
                    aria-invalid={error ? true : undefined}
                  />
                ) : (
                  <select
                    id={id}
                    value={valueOf(field)}
                    onChange={(event) => setValues({ ...values, [field]: event.target.value })}
                  >
                    {(options[field] ?? []).map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                )}
                {error && (
                  <small className="error" role="alert">
                    {error}
                  </small>
                )}
              </div>
            );
          })}
          {save.error && Object.keys(fieldErrors).length === 0 && (
            <p role="alert" className="error">
              {save.error.message}
            </p>
          )}
          <div className="actions">
            {index > 0 && (
              <button type="button" className="secondary" onClick={() => setIndex(index - 1)}>
                Back
              </button>
            )}
            <button type="button" className="secondary" onClick={next}>
              Skip this step
            </button>
            <button type="submit" disabled={save.isPending}>
              {last ? 'Save and finish' : 'Save and continue'}
            </button>
          </div>
        </form>
      </section>
      <p>
        <button type="button" className="secondary" onClick={leave}>
          Skip the rest for now
        </button>
      </p>
    </>
  );
}
