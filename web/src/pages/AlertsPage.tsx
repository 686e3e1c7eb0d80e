import type { Schemas } from '@investment-assistant/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { Field } from '../components/Field';
import { ALERT_RULES_KEY as RULES_KEY } from '../components/InboxLink';
import { QueryStatus } from '../components/Status';
import { formatMoney } from '../format';
import { Link } from '../router';

type Rule = Schemas['AlertResponse'];
type Kind = Rule['kind'];
type Rearm = Rule['rearm'];
type NumberField = 'price' | 'percent' | 'min_score' | 'window_days' | 'delta';

/** What each kind watches and the thresholds it takes (docs/alerts.md). */
const KINDS: Record<
  Kind,
  { label: string; symbol: 'one' | 'one-or-portfolio' | 'none'; numbers: NumberField[] }
> = {
  price_above: { label: 'Price rises to', symbol: 'one', numbers: ['price'] },
  price_below: { label: 'Price falls to', symbol: 'one', numbers: ['price'] },
  day_change: { label: 'Moves in a day by', symbol: 'one-or-portfolio', numbers: ['percent'] },
  drawdown: { label: 'Falls from its peak by', symbol: 'one-or-portfolio', numbers: ['percent'] },
  news: { label: 'News', symbol: 'one', numbers: ['min_score'] },
  sentiment_shift: { label: 'News sentiment shifts', symbol: 'one', numbers: ['window_days', 'delta'] },
  risk_level: { label: 'Risk leaves my tolerance', symbol: 'none', numbers: [] },
  watchlist_move: { label: 'A watchlist symbol moves by', symbol: 'none', numbers: ['percent'] },
};
const NUMBER_LABELS: Record<NumberField, { label: string; hint?: string; step: string }> = {
  price: { label: 'Price (USD)', step: '0.01' },
  percent: { label: 'Percent', hint: 'An absolute move, more than 0 and at most 100.', step: '0.1' },
  min_score: { label: 'Least sentiment score (optional)', hint: 'From 0 to 1.', step: '0.05' },
  window_days: { label: 'Days of news averaged', hint: '1 to 90.', step: '1' },
  delta: { label: 'Least change of the average score', hint: 'More than 0, at most 2.', step: '0.05' },
};
const REARM_LABELS: Record<Rearm, string> = {
  never: 'Only when I re-arm it',
  next_session: 'At the next market open',
  after_minutes: 'After some minutes',
};

/** A rule in words: what it watches and when it fires. */
export function describeRule(rule: Rule): string {
  const subject = rule.symbol === 'portfolio' ? 'Portfolio' : (rule.symbol ?? '');
  switch (rule.kind) {
    case 'price_above':
      return `${subject} at or above ${formatMoney(rule.price)}`;
    case 'price_below':
      return `${subject} at or below ${formatMoney(rule.price)}`;
    case 'day_change':
      return `${subject} moves ${rule.percent} % in a day`;
    case 'drawdown':
      return `${subject} falls ${rule.percent} % from its peak`;
    case 'news':
      return `News on ${subject}${rule.sentiment ? ` (${rule.sentiment})` : ''}${
        rule.min_score === undefined ? '' : `, score at least ${rule.min_score}`
      }`;
    case 'sentiment_shift':
      return `${subject} news sentiment moves ${rule.delta} over ${rule.window_days} days`;
    case 'risk_level':
      return 'Portfolio risk no longer matches my tolerance';
    case 'watchlist_move':
      return `A watchlist symbol moves ${rule.percent} % in a day`;
  }
}

/** The alert rules: list, create, edit thresholds and re-arming, pause, re-arm, delete. */
export function AlertsPage() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<number | null>(null);
  const rules = useQuery({
    queryKey: RULES_KEY,
    queryFn: () => unwrap(api.GET('/api/v1/alerts')),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: RULES_KEY });
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'active' | 'paused' }) =>
      unwrap(api.PATCH('/api/v1/alerts/{id}', { params: { path: { id } }, body: { status } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/v1/alerts/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const failure = setStatus.error ?? remove.error;

  return (
    <>
      <h1>Alerts</h1>
      <p>
        A rule fires once when its threshold is reached and writes to your <Link to="/inbox">inbox</Link>; it
        then waits to be re-armed, by you or by its re-arming policy.
      </p>
      <section className="card" aria-labelledby="rules-heading">
        <h2 id="rules-heading">Your rules</h2>
        {failure && (
          <p role="alert" className="error">
            {failure.message}
          </p>
        )}
        {!rules.data ? (
          <QueryStatus error={rules.error} retry={() => void rules.refetch()} />
        ) : rules.data.length === 0 ? (
          <p>No rules yet.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Rule</th>
                  <th scope="col">State</th>
                  <th scope="col">Re-arms</th>
                  <th scope="col">Last fired</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rules.data.map((rule) => {
                  const description = describeRule(rule);
                  return editing === rule.id ? (
                    <tr key={rule.id}>
                      <td colSpan={5}>
                        <RuleForm rule={rule} onDone={() => setEditing(null)} />
                      </td>
                    </tr>
                  ) : (
                    <tr key={rule.id}>
                      <th scope="row">{description}</th>
                      <td>
                        <span className={`badge ${rule.status}`}>{rule.status}</span>
                      </td>
                      <td>
                        {REARM_LABELS[rule.rearm]}
                        {rule.rearm === 'after_minutes' && ` (${rule.rearm_minutes} min)`}
                      </td>
                      <td>{rule.triggered_at ? new Date(rule.triggered_at).toLocaleString('en-US') : '—'}</td>
                      <td className="row-actions">
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => setEditing(rule.id)}
                          aria-label={`Edit: ${description}`}
                        >
                          Edit
                        </button>
                        {rule.status === 'active' ? (
                          <button
                            type="button"
                            className="secondary"
                            onClick={() => setStatus.mutate({ id: rule.id, status: 'paused' })}
                            aria-label={`Pause: ${description}`}
                          >
                            Pause
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="secondary"
                            onClick={() => setStatus.mutate({ id: rule.id, status: 'active' })}
                            aria-label={`Re-arm: ${description}`}
                          >
                            Re-arm
                          </button>
                        )}
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => remove.mutate(rule.id)}
                          aria-label={`Delete: ${description}`}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="new-rule-heading">
        <h2 id="new-rule-heading">New rule</h2>
        <RuleForm />
      </section>
    </>
  );
}

/**
 * Creates a rule, or edits one (`rule`): its kind and symbol are fixed then. The inputs are
 * uncontrolled, so what was typed stays when the API refuses a field (shown at that field).
 */
function RuleForm({ rule, onDone }: { rule?: Rule; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>(rule?.kind ?? 'price_above');
  const [rearm, setRearm] = useState<Rearm>(rule?.rearm ?? 'never');
  const shape = KINDS[kind];
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      rule
        ? unwrap(api.PATCH('/api/v1/alerts/{id}', { params: { path: { id: rule.id } }, body }))
        : unwrap(api.POST('/api/v1/alerts', { body: body as Schemas['CreateAlertDto'] })),
  });
  const errors = save.error instanceof ApiError ? save.error : null;
  const prefix = rule ? `rule-${rule.id}` : 'new-rule';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body: Record<string, unknown> = { rearm };
    if (!rule) {
      body.kind = kind;
      const symbol = String(data.get('symbol') ?? '')
        .trim()
        .toUpperCase();
      if (shape.symbol !== 'none') body.symbol = symbol === 'PORTFOLIO' ? 'portfolio' : symbol;
    }
    for (const field of shape.numbers) {
      const value = String(data.get(field) ?? '').trim();
      if (value !== '') body[field] = Number(value);
    }
    if (kind === 'news' && data.get('sentiment')) body.sentiment = data.get('sentiment');
    if (rearm === 'after_minutes') body.rearm_minutes = Number(data.get('rearm_minutes'));
    save.mutate(body, {
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: RULES_KEY });
        if (!rule) form.reset();
        onDone?.();
      },
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid-form"
      aria-label={rule ? `Edit ${describeRule(rule)}` : undefined}
    >
      <div className="field">
        <label htmlFor={`${prefix}-kind`}>Kind</label>
        <select
          id={`${prefix}-kind`}
          value={kind}
          onChange={(event) => setKind(event.target.value as Kind)}
          disabled={rule !== undefined}
        >
          {Object.entries(KINDS).map(([value, { label }]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {shape.symbol !== 'none' && (
        <Field
          label="Symbol"
          name="symbol"
          defaultValue={rule?.symbol ?? ''}
          disabled={rule !== undefined}
          hint={
            shape.symbol === 'one-or-portfolio'
              ? 'A ticker, or "portfolio" for the whole portfolio.'
              : undefined
          }
          error={errors?.errorAt('symbol')}
          autoComplete="off"
        />
      )}
      {kind === 'news' && (
        <div className="field">
          <label htmlFor={`${prefix}-sentiment`}>Sentiment</label>
          <select id={`${prefix}-sentiment`} name="sentiment" defaultValue={rule?.sentiment ?? ''}>
            <option value="">any</option>
            <option value="positive">positive</option>
            <option value="negative">negative</option>
          </select>
        </div>
      )}
      {shape.numbers.map((field) => (
        <Field
          key={`${kind}-${field}`}
          label={NUMBER_LABELS[field].label}
          name={field}
          type="number"
          inputMode="decimal"
          step={NUMBER_LABELS[field].step}
          defaultValue={rule?.[field] ?? ''}
          hint={NUMBER_LABELS[field].hint}
          error={errors?.errorAt(field)}
        />
      ))}
      <div className="field">
        <label htmlFor={`${prefix}-rearm`}>Re-arm</label>
        <select
          id={`${prefix}-rearm`}
          value={rearm}
          onChange={(event) => setRearm(event.target.value as Rearm)}
        >
          {Object.entries(REARM_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {rearm === 'after_minutes' && (
        <Field
          label="Minutes"
          name="rearm_minutes"
          type="number"
          step="1"
          defaultValue={rule?.rearm_minutes ?? 60}
          error={errors?.errorAt('rearm_minutes')}
        />
      )}
      {save.error && !(errors && errors.status === 422 && Object.keys(errors.fieldErrors).length > 0) && (
        <p role="alert" className="error">
          {save.error.message}
        </p>
      )}
      <div className="actions">
        {rule && (
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        )}
        <button type="submit" disabled={save.isPending}>
          {rule ? 'Save' : 'Create alert'}
        </button>
      </div>
    </form>
  );
}
