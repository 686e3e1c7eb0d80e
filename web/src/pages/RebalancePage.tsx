import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import type { Schemas } from '@investment-assistant/client';
import { api, ApiError, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { formatMoney, formatWeight } from '../format';
import { idempotencyKey } from '../idempotency-key';

type Plan = Schemas['RebalanceResponse'];
type TargetsBy = 'symbol' | 'sector';
/** The sector of a holding the market data does not classify: it cannot be a target. */
const UNKNOWN_SECTOR = 'unknown';

/** The current weight of each held symbol, or of each sector summed over its symbols. */
function currentWeights(
  positions: Schemas['PositionResponse'][],
  by: TargetsBy,
): { name: string; weight: number }[] {
  const weights = new Map<string, number>();
  for (const position of positions) {
    const name = by === 'symbol' ? position.symbol : position.sector;
    weights.set(name, (weights.get(name) ?? 0) + position.weight);
  }
  return [...weights].map(([name, weight]) => ({ name, weight }));
}

/**
 * Target weights by symbol or by sector, a dry run that shows the trades, then one click to
 * record them: the plan's Idempotency-Key makes a double click or a retry record them once.
 */
export function RebalancePage() {
  const positions = useQuery({
    queryKey: ['positions'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/positions')),
  });
  const [by, setBy] = useState<TargetsBy>('symbol');
  const [targets, setTargets] = useState<Record<TargetsBy, Record<string, string>>>({
    symbol: {},
    sector: {},
  });
  const [plan, setPlan] = useState<{
    result: Plan;
    key: string;
    body: Schemas['RebalanceRequestDto'];
  } | null>(null);
  const queryClient = useQueryClient();
  const rebalance = useMutation({
    mutationFn: ({ body, key }: { body: Schemas['RebalanceRequestDto']; key?: string }) =>
      unwrap(
        api.POST('/api/v1/portfolio/rebalance', {
          body,
          ...(key ? { params: { header: { 'Idempotency-Key': key } } } : {}),
        }),
      ),
  });
  if (!positions.data) return <QueryStatus error={positions.error} retry={() => void positions.refetch()} />;
  const held = currentWeights(positions.data.positions, by).filter(({ name }) => name !== UNKNOWN_SECTOR);
  const unclassified = positions.data.positions.filter((position) => position.sector === UNKNOWN_SECTOR);
  const valueOf = (name: string, weight: number) =>
    targets[by][name] ?? String(Math.round(weight * 100) / 100);
  const entered = held.map(({ name, weight }) => ({ name, weight: Number(valueOf(name, weight)) }));
  const total = entered.reduce(
    (sum, target) => sum + (Number.isFinite(target.weight) ? target.weight : 0),
    0,
  );

  const planIt = (event: FormEvent) => {
    event.preventDefault();
    const body: Schemas['RebalanceRequestDto'] =
      by === 'symbol'
        ? { targets: entered.map(({ name, weight }) => ({ symbol: name, weight })) }
        : {
            sector_targets: entered.map(({ name, weight }) => ({
              sector: name as Schemas['SectorTargetDto']['sector'],
              weight,
            })),
          };
    rebalance.mutate(
      { body: { ...body, dry_run: true } },
      { onSuccess: (result) => setPlan({ result, key: idempotencyKey(), body }) },
    );
  };
  const execute = () => {
    if (!plan || rebalance.isPending) return;
    rebalance.mutate(
      { body: { ...plan.body, dry_run: false }, key: plan.key },
      {
        onSuccess: (result) => {
          setPlan({ ...plan, result });
          void queryClient.invalidateQueries();
        },
      },
    );
  };
  const choose = (next: TargetsBy) => {
    setBy(next);
    setPlan(null);
    rebalance.reset();
  };
  const error = rebalance.error instanceof ApiError ? rebalance.error : null;

  return (
    <>
      <h1>Rebalance</h1>
      {held.length === 0 ? (
        <p>No holdings to rebalance yet.</p>
      ) : (
        <section className="card" aria-labelledby="targets-heading">
          <h2 id="targets-heading">Target weights</h2>
          <fieldset className="segmented-choice">
            <legend>Targets by</legend>
            {(['symbol', 'sector'] as const).map((choice) => (
              <label key={choice}>
                <input
                  type="radio"
                  name="targets-by"
                  value={choice}
                  checked={by === choice}
                  onChange={() => choose(choice)}
                />{' '}
                {choice === 'symbol' ? 'Holding' : 'Sector'}
              </label>
            ))}
          </fieldset>
          {by === 'sector' && (
            <p className="hint">
              Each sector&apos;s target is spread over the holdings in it in proportion to their value.
              {unclassified.length > 0 &&
                ` ${unclassified.map((position) => position.symbol).join(', ')} ${unclassified.length === 1 ? 'has' : 'have'} no known sector and would be sold: target by holding to keep ${unclassified.length === 1 ? 'it' : 'them'}.`}
            </p>
          )}
          <form onSubmit={planIt} noValidate>
            <div className="grid-form">
              {held.map(({ name, weight }) => (
                <div className="field" key={name}>
                  <label htmlFor={`target-${by}-${name}`}>
                    {name} (now {formatWeight(weight)}), %
                  </label>
                  <input
                    id={`target-${by}-${name}`}
                    inputMode="decimal"
                    value={valueOf(name, weight)}
                    onChange={(event) => {
                      setTargets({ ...targets, [by]: { ...targets[by], [name]: event.target.value } });
                      setPlan(null);
                    }}
                  />
                </div>
              ))}
            </div>
            <p data-testid="target-total">
              Targets add up to {Math.round(total * 100) / 100} % (they must make 100 %).
            </p>
            {error && (
              <p role="alert" className="error">
                {error.message}
              </p>
            )}
            <button type="submit" disabled={rebalance.isPending}>
              Plan (dry run)
            </button>
          </form>
        </section>
      )}
      {plan && (
        <section className="card" aria-labelledby="plan-heading">
          <h2 id="plan-heading">{plan.result.executed ? 'Recorded' : 'Planned trades'}</h2>
          {plan.result.trades.length === 0 ? (
            <p>Nothing to trade: every holding is within its target.</p>
          ) : (
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Symbol</th>
                    <th scope="col">Side</th>
                    <th scope="col">Quantity</th>
                    <th scope="col">Price</th>
                    <th scope="col">Value</th>
                  </tr>
                </thead>
                <tbody>
                  {plan.result.trades.map((trade) => (
                    <tr key={`${trade.symbol}-${trade.side}`}>
                      <th scope="row">{trade.symbol}</th>
                      <td>{trade.side}</td>
                      <td>{trade.quantity}</td>
                      <td>{formatMoney(trade.price)}</td>
                      <td>{formatMoney(trade.value)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p>
            Turnover {formatMoney(plan.result.turnover)}; cash left {formatMoney(plan.result.cash_remaining)}.
          </p>
          {plan.result.executed ? (
            <p role="status">Recorded {plan.result.transaction_ids.length} transactions.</p>
          ) : (
            plan.result.trades.length > 0 && (
              <button type="button" onClick={execute} disabled={rebalance.isPending}>
                Record these trades
              </button>
            )
          )}
        </section>
      )}
    </>
  );
}
