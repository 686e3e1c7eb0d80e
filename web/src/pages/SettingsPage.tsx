import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { Field } from '../components/Field';
import { PreferenceInput } from '../components/PreferenceInput';
import { QueryStatus } from '../components/Status';
import {
  draftValue,
  fetchPreferences,
  PREFERENCE_STEPS,
  PreferenceChoices,
  PreferenceDraft,
  PreferenceField,
  Preferences,
  savePreferences,
  toPreferenceBody,
} from '../preferences';

const COMMUNICATION_FIELDS = ['alert_frequency', 'daily_summary_time'] as const;
const SESSIONS_KEY = ['sessions'];

/** Every preference, where notifications go, the sessions signed in, and the password. */
export function SettingsPage() {
  const choices = useQuery({
    queryKey: ['preference-choices'],
    queryFn: () => unwrap(api.GET('/api/v1/preferences/choices')),
    staleTime: Infinity,
  });
  const saved = useQuery({ queryKey: ['preferences'], queryFn: fetchPreferences });
  const defaults = useQuery({
    queryKey: ['preference-defaults', 'beginner'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/preferences/defaults/{experience_level}', {
          params: { path: { experience_level: 'beginner' } },
        }),
      ),
    enabled: saved.data === null,
  });
  const base = (saved.data ?? defaults.data) as Record<string, unknown> | undefined;
  return (
    <>
      <h1>Settings</h1>
      {!choices.data || !base ? (
        <QueryStatus
          error={choices.error ?? saved.error ?? defaults.error}
          retry={() => void Promise.all([choices.refetch(), saved.refetch()])}
        />
      ) : (
        <>
          <PreferencesForm choices={choices.data} base={base} exists={saved.data != null} />
          <NotificationsForm choices={choices.data} base={base} exists={saved.data != null} />
        </>
      )}
      <Sessions />
      <ChangePassword />
    </>
  );
}

interface PreferenceFormProps {
  choices: PreferenceChoices;
  base: Record<string, unknown>;
  exists: boolean;
}

/** Saves `fields` of the draft over `base`; the saved record replaces the cached one. */
function useSavePreferences(exists: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => savePreferences(body, exists),
    onSuccess: (record: Preferences) => queryClient.setQueryData(['preferences'], record),
  });
}

function PreferencesForm({ choices, base, exists }: PreferenceFormProps) {
  const [draft, setDraft] = useState<PreferenceDraft>({});
  const save = useSavePreferences(exists);
  const steps = PREFERENCE_STEPS.filter((step) => step.key !== 'communication');
  const fields = steps.flatMap((step) => step.fields as readonly PreferenceField[]);
  const errors = save.error instanceof ApiError ? save.error : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(toPreferenceBody(fields, draft, base), { onSuccess: () => setDraft({}) });
  };
  return (
    <section className="card" aria-labelledby="preferences-heading">
      <h2 id="preferences-heading">Preferences</h2>
      <form onSubmit={submit} noValidate>
        {steps.map((step) => (
          <div key={step.key} className="preference-group">
            <h3>{step.title}</h3>
            {step.fields.map((field) => (
              <PreferenceInput
                key={field}
                field={field}
                value={draftValue(draft, base, field)}
                choices={choices}
                onChange={(value) => setDraft({ ...draft, [field]: value })}
                error={errors?.errorAt(field)}
              />
            ))}
          </div>
        ))}
        <SaveOutcome
          error={save.error}
          placed={fields.some((field) => errors?.errorAt(field))}
          done={save.isSuccess}
        />
        <button type="submit" disabled={save.isPending}>
          Save preferences
        </button>
      </form>
    </section>
  );
}

/** How often alerts come, when the briefing comes, and by which channels besides the inbox. */
function NotificationsForm({ choices, base, exists }: PreferenceFormProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PreferenceDraft>({});
  const channels = useQuery({
    queryKey: ['notification-settings'],
    queryFn: () => unwrap(api.GET('/api/v1/notifications/settings')),
  });
  const savePreferences = useSavePreferences(exists);
  const saveChannels = useMutation({
    mutationFn: (body: { webhook_url: string | null; email_enabled: boolean; time_zone: string }) =>
      unwrap(api.PUT('/api/v1/notifications/settings', { body })),
    onSuccess: (settings) => queryClient.setQueryData(['notification-settings'], settings),
  });
  const [done, setDone] = useState(false);
  if (!channels.data) return <QueryStatus error={channels.error} retry={() => void channels.refetch()} />;
  const settings = channels.data;
  const failure = savePreferences.error ?? saveChannels.error;
  const errors = failure instanceof ApiError ? failure : null;
  const zones = timeZones(settings.time_zone);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setDone(false);
    try {
      await savePreferences.mutateAsync(toPreferenceBody(COMMUNICATION_FIELDS, draft, base));
      const webhook = String(form.get('webhook_url') ?? '').trim();
      await saveChannels.mutateAsync({
        webhook_url: webhook === '' ? null : webhook,
        email_enabled: form.get('email_enabled') === 'on',
        time_zone: String(form.get('time_zone')),
      });
      setDraft({});
      setDone(true);
    } catch {
      // Shown at the field, or under the form.
    }
  };
  return (
    <section className="card" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {COMMUNICATION_FIELDS.map((field) => (
          <PreferenceInput
            key={field}
            field={field}
            value={draftValue(draft, base, field)}
            choices={choices}
            onChange={(value) => setDraft({ ...draft, [field]: value })}
            error={errors?.errorAt(field)}
          />
        ))}
        <Field
          label="Webhook URL"
          name="webhook_url"
          type="url"
          defaultValue={settings.webhook_url ?? ''}
          hint="An https address that receives each notification as a signed POST; leave empty for none."
          error={errors?.errorAt('webhook_url')}
        />
        {settings.webhook_secret && (
          <p>
            Signing secret: <code>{settings.webhook_secret}</code>
          </p>
        )}
        <div className="field checkbox">
          <label className="choice">
            <input
              type="checkbox"
              name="email_enabled"
              defaultChecked={settings.email_enabled}
              disabled={!settings.email_available}
              aria-describedby={settings.email_available ? undefined : 'email-unavailable'}
            />
            Email each notification
          </label>
          {!settings.email_available && (
            <small id="email-unavailable" className="hint">
              This service has no mail server configured.
            </small>
          )}
        </div>
        <div className="field">
          <label htmlFor="time-zone">Time zone of digests and the briefing</label>
          <select id="time-zone" name="time_zone" defaultValue={settings.time_zone}>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </div>
        <SaveOutcome
          error={failure}
          placed={[...COMMUNICATION_FIELDS, 'webhook_url'].some((field) => errors?.errorAt(field))}
          done={done}
        />
        <button type="submit" disabled={savePreferences.isPending || saveChannels.isPending}>
          Save notification settings
        </button>
      </form>
    </section>
  );
}

/** The IANA zones this browser knows, the saved one included. */
function timeZones(saved: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(saved) ? known : [saved, ...known];
}

/** A save's failure when no field shows it, or a word that it worked. */
function SaveOutcome({ error, placed, done }: { error: Error | null; placed: boolean; done: boolean }) {
  if (error && !placed)
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    );
  return (
    <p role="status" className="hint">
      {done && !error ? 'Saved.' : ''}
    </p>
  );
}

/** The sessions signed in to this account; any but this one can be ended. */
function Sessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => unwrap(api.GET('/api/v1/auth/sessions')),
  });
  const end = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {end.error && (
        <p role="alert" className="error">
          {end.error.message}
        </p>
      )}
      {!sessions.data ? (
        <QueryStatus error={sessions.error} retry={() => void sessions.refetch()} />
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Browser or app</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((entry) => {
                const signedIn = new Date(entry.created_at).toLocaleString('en-US');
                return (
                  <tr key={entry.id}>
                    <th scope="row" className="wrap">
                      {entry.user_agent ?? 'Unknown'}
                    </th>
                    <td>{entry.ip_address ?? '—'}</td>
                    <td>{signedIn}</td>
                    <td>{new Date(entry.last_used_at).toLocaleString('en-US')}</td>
                    <td>
                      {entry.current ? (
                        'This session'
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => end.mutate(entry.id)}
                          aria-label={`End the session signed in ${signedIn}`}
                        >
                          End
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A new password: every other session ends, this one goes on. */
function ChangePassword() {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      unwrap(api.POST('/api/v1/auth/change-password', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
  const errors = change.error instanceof ApiError ? change.error : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    change.mutate(
      {
        current_password: String(data.get('current_password')),
        new_password: String(data.get('new_password')),
      },
      { onSuccess: () => form.reset() },
    );
  };
  const placed = ['current_password', 'new_password'].some((field) => errors?.errorAt(field));
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <form onSubmit={submit} noValidate>
        <Field
          label="Current password"
          name="current_password"
          type="password"
          autoComplete="current-password"
          error={errors?.errorAt('current_password')}
        />
        <Field
          label="New password"
          name="new_password"
          type="password"
          autoComplete="new-password"
          hint="8 to 128 characters, not easy to guess. Your other sessions end; this one goes on."
          error={errors?.errorAt('new_password')}
        />
        {change.error && !placed && (
          <p role="alert" className="error">
            {change.error.message}
          </p>
        )}
        <p role="status" className="hint">
          {change.isSuccess ? 'Password changed.' : ''}
        </p>
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
      </form>
    </section>
  );
}
