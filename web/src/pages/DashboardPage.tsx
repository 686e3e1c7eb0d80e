import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { WeightBars } from '../components/Bars';
import { QueryStatus } from '../components/Status';
import { ValueChart } from '../components/ValueChart';
import { formatMoney, formatPercent, tone } from '../format';
import { BriefingHeadline } from './BriefingPage';

const PERIODS = ['1M', '3M', 'YTD', '1Y', 'ALL'] as const;
type Period = (typeof PERIODS)[number];

/** The value history of a period (its own query, so the dashboard asks for it with the rest). */
function useValueHistory(period: Period) {
  return useQuery({
    queryKey: ['history', period],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/history', { params: { query: { period } } })),
  });
}

export function DashboardPage() {
  // Every query starts on the first render, before the overview is in: one round trip, not two.
  const [period, setPeriod] = useState<Period>('1Y');
  const history = useValueHistory(period);
  const overview = useQuery({
    queryKey: ['portfolio'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio')),
  });
  const positions = useQuery({
    queryKey: ['positions'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/positions')),
  });
  if (!overview.data) return <QueryStatus error={overview.error} retry={() => void overview.refetch()} />;
  const { summary, risk } = overview.data;
  const cash = summary.cash_balance;
  return (
    <>
      <h1>Dashboard</h1>
      <section className="tiles" aria-label="Totals">
        <Tile label="Total value" value={formatMoney(summary.total_value_with_cash ?? summary.total_value)} />
        <Tile
          label="Day change"
          value={`${formatMoney(summary.day_change)} (${formatPercent(summary.day_change_percent)})`}
          tone={tone(summary.day_change)}
        />
        <Tile
          label="Unrealized P&L"
          value={`${formatMoney(summary.unrealized_pnl)} (${formatPercent(summary.unrealized_pnl_percent)})`}
          tone={tone(summary.unrealized_pnl)}
        />
        <Tile
          label="Realized P&L"
          value={formatMoney(summary.realized_pnl)}
          tone={tone(summary.realized_pnl)}
        />
        <Tile label="Cash" value={cash === undefined ? 'Not tracked' : formatMoney(cash)} />
      </section>

      <BriefingHeadline />

      <ValueHistory period={period} onPeriod={setPeriod} history={history} />

      <section className="card" aria-labelledby="returns-heading">
        <h2 id="returns-heading">Returns</h2>
        <p className="hint">
          Time-weighted return measures the investments alone, ignoring when you added or took out money;
          money-weighted return is what your own money earned, timing of deposits and withdrawals included.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Time-weighted</th>
              <th scope="col">Money-weighted</th>
            </tr>
          </thead>
          <tbody>
            {PERIODS.map((period) => (
              <tr key={period}>
                <th scope="row">{period}</th>
                <td className={tone(summary.performance[period])}>
                  {formatPercent(summary.performance[period])}
                </td>
                <td className={tone(summary.money_weighted_performance[period])}>
                  {formatPercent(summary.money_weighted_performance[period])}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <div className="columns">
        <section className="card" aria-labelledby="holding-allocation">
          <h2 id="holding-allocation">Allocation by holding</h2>
          {positions.data && positions.data.positions.length > 0 ? (
            <WeightBars
              label="Weight of each holding"
              items={positions.data.positions.map((position) => ({
                name: position.symbol,
                weight: position.weight,
              }))}
            />
          ) : (
            <p>No holdings yet.</p>
          )}
        </section>
        <section className="card" aria-labelledby="sector-allocation">
          <h2 id="sector-allocation">Allocation by sector</h2>
          {summary.sector_allocation.length > 0 ? (
            <WeightBars
              label="Weight of each sector"
              items={summary.sector_allocation.map((sector) => ({
                name: sector.sector,
                weight: sector.weight,
              }))}
            />
          ) : (
            <p>No holdings yet.</p>
          )}
        </section>
      </div>

      <div className="columns">
        <section className="card" aria-labelledby="performers">
          <h2 id="performers">Best and worst</h2>
          <dl>
            <dt>Best</dt>
            <dd>
              {summary.best_performer
                ? `${summary.best_performer.symbol} ${formatPercent(summary.best_performer.unrealized_pnl_percent)}`
                : '—'}
            </dd>
            <dt>Worst</dt>
            <dd>
              {summary.worst_performer
                ? `${summary.worst_performer.symbol} ${formatPercent(summary.worst_performer.unrealized_pnl_percent)}`
                : '—'}
            </dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="risk-heading">
          <h2 id="risk-heading">Risk</h2>
          <p data-testid="risk-level">
            {risk.risk_level === null
              ? 'Not enough history yet to tell the risk level.'
              : `The portfolio's risk level is ${risk.risk_level}. ` +
                (risk.matches_preferences === null
                  ? 'Set your risk tolerance in your preferences to compare.'
                  : risk.matches_preferences
                    ? 'It matches your risk tolerance.'
                    : 'It does not match your risk tolerance.')}
          </p>
        </section>
      </div>
    </>
  );
}

function Tile({ label, value, tone: direction = '' }: { label: string; value: string; tone?: string }) {
  return (
    <div className="tile">
      <span className="tile-label">{label}</span>
      <span className={`tile-value ${direction}`}>{value}</span>
    </div>
  );
}

function ValueHistory({
  period,
  onPeriod: setPeriod,
  history,
}: {
  period: Period;
  onPeriod: (period: Period) => void;
  history: ReturnType<typeof useValueHistory>;
}) {
  const points = history.data?.points ?? [];
  const first = points[0];
  const last = points[points.length - 1];
  const summaryText =
    first && last
      ? `Portfolio value from ${first.date} to ${last.date}: ${formatMoney(first.market_value)} to ${formatMoney(last.market_value)}, a time-weighted return of ${formatPercent(last.cumulative_return)}.`
      : 'No value history for this period yet.';
  return (
    <section className="card" aria-labelledby="history-heading">
      <h2 id="history-heading">Value history</h2>
      <div role="group" aria-label="Period" className="segmented">
        {PERIODS.map((candidate) => (
          <button
            key={candidate}
            type="button"
            aria-pressed={candidate === period}
            onClick={() => setPeriod(candidate)}
          >
            {candidate}
          </button>
        ))}
      </div>
      {history.data ? (
        <>
          {points.length > 0 && (
            <ValueChart
              label={summaryText}
              points={points.map((point) => ({ date: point.date, value: point.market_value }))}
            />
          )}
          <p className="chart-summary" data-testid="history-summary">
            {summaryText}
          </p>
        </>
      ) : (
        <QueryStatus error={history.error} retry={() => void history.refetch()} />
      )}
    </section>
  );
}
