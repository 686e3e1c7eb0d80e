import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { Depth, DEPTHS, explainLevel, explainRisk } from '../risk-explanations';
import { Link } from '../router';

/**
 * The risk metrics of the holdings, each explained in plain language at the user's
 * `analysis_depth` (simple without preferences); the depth can be changed for this page.
 */
export function RiskPage() {
  const risk = useQuery({
    queryKey: ['risk-metrics'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/risk-metrics')),
  });
  const preferences = useQuery({
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
  const [chosen, setChosen] = useState<Depth | null>(null);
  if (!risk.data || preferences.data === undefined) {
    return (
      <QueryStatus
        error={risk.error ?? preferences.error}
        retry={() => void Promise.all([risk.refetch(), preferences.refetch()])}
      />
    );
  }
  const preferred = preferences.data?.analysis_depth ?? 'simple';
  const depth = chosen ?? preferred;
  const metrics = risk.data;
  const explained = explainRisk(metrics, depth);
  const matrix = metrics.correlation_matrix;
  return (
    <>
      <h1>Risk</h1>
      <div className="field inline">
        <label htmlFor="risk-depth">Explanations</label>
        <select id="risk-depth" value={depth} onChange={(event) => setChosen(event.target.value as Depth)}>
          {DEPTHS.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
              {candidate === preferred ? ' (your preference)' : ''}
            </option>
          ))}
        </select>
        <small className="hint">
          From your <Link to="/onboarding">preferences</Link>’ depth of analysis.
        </small>
      </div>

      <section className="card" aria-labelledby="risk-level-heading">
        <h2 id="risk-level-heading">Risk level</h2>
        {explainLevel(metrics, depth).map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
        {metrics.window && (
          <p className="hint">
            Measured over {metrics.window.observations} trading days, {metrics.window.start_date} to{' '}
            {metrics.window.end_date}, against {metrics.benchmark}.
          </p>
        )}
      </section>

      {explained.length === 0 ? (
        <section className="card">
          <p>No risk figures yet: they need holdings with a price history.</p>
        </section>
      ) : (
        <section className="card" aria-labelledby="risk-metrics-heading">
          <h2 id="risk-metrics-heading">Metrics</h2>
          <dl className="metrics" data-depth={depth}>
            {explained.map((metric) => (
              <div key={metric.name} className="metric">
                <dt>
                  {metric.name}: <strong>{metric.value}</strong>
                </dt>
                {metric.explanation.map((sentence, index) => (
                  <dd key={sentence} className={index === 2 ? 'technical' : undefined}>
                    {sentence}
                  </dd>
                ))}
              </div>
            ))}
          </dl>
        </section>
      )}

      {depth !== 'simple' && matrix && matrix.symbols.length > 1 && (
        <section className="card" aria-labelledby="correlation-heading">
          <h2 id="correlation-heading">How the largest holdings move together</h2>
          <p className="hint">
            1 moves in step, 0 unrelated, −1 opposite: holdings near 1 add little diversification.
          </p>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Holding</span>
                  </th>
                  {matrix.symbols.map((symbol) => (
                    <th scope="col" key={symbol}>
                      {symbol}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {matrix.symbols.map((symbol, row) => (
                  <tr key={symbol}>
                    <th scope="row">{symbol}</th>
                    {matrix.matrix[row].map((value, column) => (
                      <td key={matrix.symbols[column]}>{value === null ? '—' : value.toFixed(2)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {metrics.notes.length > 0 && (
        <section className="card" aria-labelledby="risk-notes-heading">
          <h2 id="risk-notes-heading">Notes</h2>
          <ul>
            {metrics.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
