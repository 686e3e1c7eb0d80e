import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useEffect, useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { PreferenceInput } from '../components/PreferenceInput';
import { QueryStatus } from '../components/Status';
import {
  draftValue,
  fetchPreferences,
  PREFERENCE_STEPS as STEPS,
  PreferenceDraft,
  PreferenceStep,
  toPreferenceBody,
} from '../preferences';
import { navigate } from '../router';

/** Where a person who left the wizard comes back to, in this tab. */
const STEP_KEY = 'onboarding-step';

/**
 * The preferences wizard: one step at a time, each saved as it is left (so leaving and coming back
 * resumes with what was chosen), every step skippable, prefilled with the saved record or the
 * defaults of the chosen experience level.
 */
export function OnboardingPage() {
  const [index, setIndex] = useState(() => Number(sessionStorage.getItem(STEP_KEY) ?? 0) || 0);
  const [values, setValues] = useState<PreferenceDraft>({});
  const choices = useQuery({
    queryKey: ['preference-choices'],
    queryFn: () => unwrap(api.GET('/api/v1/preferences/choices')),
    staleTime: Infinity,
  });
  const saved = useQuery({
    queryKey: ['preferences'],
    queryFn: fetchPreferences,
  });
  const level = String(values.experience_level ?? saved.data?.experience_level ?? 'beginner');
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
    mutationFn: (body: { step: PreferenceStep; fields: Record<string, unknown>; complete: boolean }) =>
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
  const fieldErrors = save.error instanceof ApiError ? save.error : null;

  const leave = () => {
    sessionStorage.removeItem(STEP_KEY);
    navigate('/dashboard');
  };
  const next = () => (last ? leave() : setIndex(index + 1));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { step: step.key, fields: toPreferenceBody(step.fields, values, base), complete: last },
      { onSuccess: next },
    );
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
          {step.fields.map((field) => (
            <PreferenceInput
              key={field}
              field={field}
              value={draftValue(values, base, field)}
              choices={choices.data}
              onChange={(value) => setValues({ ...values, [field]: value })}
              error={fieldErrors?.errorAt(field)}
            />
          ))}
          {save.error && !step.fields.some((field) => fieldErrors?.errorAt(field)) && (
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
