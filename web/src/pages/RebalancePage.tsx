import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import type { Schemas } from '@investment-assistant/client';
import { api, ApiError, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { formatMoney, formatWeight } from '../format';

type Plan = Schemas['RebalanceResponse'];

/** A random key per plan (crypto.randomUUID needs a secure context; getRandomValues does not). */
function idempotencyKey(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
}

/**
 * Target weights by symbol, a dry run that shows the trades, then one click to record them: the
 * plan's Idempotency-Key makes a double click or a retry record them once.
 */
export function RebalancePage() {
  const positions = useQuery({
    queryKey: ['positions'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/positions')),
  });
  const [targets, setTargets] = useState<Record<string, string>>({});
  const [plan, setPlan] = useState<{
    result: Plan;
    key: string;
    targets: Schemas['SymbolTargetDto'][];
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
  const held = positions.data.positions;
  const valueOf = (symbol: string, weight: number) =>
    targets[symbol] ?? String(Math.round(weight * 100) / 100);
  const entered = held.map((position) => ({
    symbol: position.symbol,
    weight: Number(valueOf(position.symbol, position.weight)),
  }));
  const total = entered.reduce(
    (sum, target) => sum + (Number.isFinite(target.weight) ? target.weight : 0),
    0,
  );

  const planIt = (event: FormEvent) => {
    event.preventDefault();
    rebalance.mutate(
      { body: { targets: entered, dry_run: true } },
      { onSuccess: (result) => setPlan({ result, key: idempotencyKey(), targets: entered }) },
    );
  };
  const execute = () => {
    if (!plan || rebalance.isPending) return;
    rebalance.mutate(
      { body: { targets: plan.targets, dry_run: false }, key: plan.key },
      {
        onSuccess: (result) => {
          setPlan({ ...plan, result });
          void queryClient.invalidateQueries();
        },
      },
    );
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
          <form onSubmit={planIt} noValidate>
            <div className="grid-form">
              {held.map((position) => (
                <div className="field" key={position.symbol}>
                  <label htmlFor={`target-${position.symbol}`}>
                    {position.symbol} (now {formatWeight(position.weight)}), %
                  </label>
                  <input
                    id={`target-${position.symbol}`}
                    inputMode="decimal"
                    value={valueOf(position.symbol, position.weight)}
                    onChange={(event) => {
                      setTargets({ ...targets, [position.symbol]: event.target.value });
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
