import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '@investment-assistant/client';
import { api, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { formatMoney, formatPercent, formatWeight, tone } from '../format';
import { Link } from '../router';

type Position = Schemas['PositionResponse'];
type Column =
  'symbol' | 'quantity' | 'cost_basis' | 'market_value' | 'unrealized_pnl' | 'weight' | 'day_change';

const COLUMNS: { key: Column; label: string }[] = [
  { key: 'symbol', label: 'Symbol' },
  { key: 'quantity', label: 'Quantity' },
  { key: 'cost_basis', label: 'Cost' },
  { key: 'market_value', label: 'Value' },
  { key: 'unrealized_pnl', label: 'P&L' },
  { key: 'weight', label: 'Weight' },
  { key: 'day_change', label: 'Day change' },
];

export function HoldingsPage() {
  const positions = useQuery({
    queryKey: ['positions'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/positions')),
  });
  const [sort, setSort] = useState<{ key: Column; descending: boolean }>({
    key: 'market_value',
    descending: true,
  });
  if (!positions.data) return <QueryStatus error={positions.error} retry={() => void positions.refetch()} />;
  const rows = [...positions.data.positions].sort(
    (a, b) => compare(a, b, sort.key) * (sort.descending ? -1 : 1),
  );
  return (
    <>
      <h1>Holdings</h1>
      {rows.length === 0 ? (
        <p>No holdings yet: record a buy on the Transactions page.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Positions, sortable by each column</caption>
            <thead>
              <tr>
                {COLUMNS.map(({ key, label }) => (
                  <th
                    key={key}
                    scope="col"
                    aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
                  >
                    <button
                      type="button"
                      className="sort"
                      onClick={() =>
                        setSort({ key, descending: sort.key === key ? !sort.descending : key !== 'symbol' })
                      }
                    >
                      {label}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((position) => (
                <tr key={position.symbol}>
                  <th scope="row">
                    <Link to={`/holdings/${encodeURIComponent(position.symbol)}`}>{position.symbol}</Link>
                  </th>
                  <td>{position.quantity}</td>
                  <td>{formatMoney(position.cost_basis)}</td>
                  <td>{formatMoney(position.market_value)}</td>
                  <td className={tone(position.unrealized_pnl)}>
                    {formatMoney(position.unrealized_pnl)} ({formatPercent(position.unrealized_pnl_percent)})
                  </td>
                  <td>{formatWeight(position.weight)}</td>
                  <td className={tone(position.day_change)}>
                    {formatMoney(position.day_change)} ({formatPercent(position.day_change_percent)})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function compare(a: Position, b: Position, key: Column): number {
  const left = a[key];
  const right = b[key];
  return typeof left === 'string' && typeof right === 'string'
    ? left.localeCompare(right)
    : Number(left) - Number(right);
}
