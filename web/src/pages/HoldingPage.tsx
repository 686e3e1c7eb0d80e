import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { ValueChart } from '../components/ValueChart';
import { formatMoney, formatPercent, tone } from '../format';
import { Link } from '../router';

/** One holding: its price over the last year, its open lots and its news with sentiment. */
export function HoldingPage({ params }: { params: Record<string, string> }) {
  const symbol = params.symbol.toUpperCase();
  const history = useQuery({
    queryKey: ['price-history', symbol],
    queryFn: () => unwrap(api.GET('/api/v1/market/stock/{symbol}/history', { params: { path: { symbol } } })),
  });
  const lots = useQuery({
    queryKey: ['lots'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/lots')),
  });
  const news = useQuery({
    queryKey: ['news', 'symbol', symbol],
    queryFn: () => unwrap(api.GET('/api/v1/news', { params: { query: { symbol, limit: 10 } } })),
  });
  const bars = history.data?.bars ?? [];
  const first = bars[0];
  const last = bars[bars.length - 1];
  const priceSummary =
    first && last
      ? `${symbol} closed at ${formatMoney(first.close)} on ${first.date.slice(0, 10)} and at ${formatMoney(last.close)} on ${last.date.slice(0, 10)} (${formatPercent(((last.close - first.close) / first.close) * 100)}).`
      : `No price history for ${symbol}.`;
  const openLots = lots.data?.lots.filter((lot) => lot.symbol === symbol) ?? [];
  return (
    <>
      <p>
        <Link to="/holdings">← Holdings</Link>
      </p>
      <h1>{symbol}</h1>
      <section className="card" aria-labelledby="price-heading">
        <h2 id="price-heading">Price, last year</h2>
        {history.data ? (
          <>
            {bars.length > 0 && (
              <ValueChart
                label={priceSummary}
                points={bars.map((bar) => ({ date: bar.date.slice(0, 10), value: bar.close }))}
              />
            )}
            <p className="chart-summary" data-testid="price-summary">
              {priceSummary}
            </p>
          </>
        ) : (
          <QueryStatus error={history.error} retry={() => void history.refetch()} />
        )}
      </section>
      <section className="card" aria-labelledby="lots-heading">
        <h2 id="lots-heading">Open lots</h2>
        {!lots.data ? (
          <QueryStatus error={lots.error} retry={() => void lots.refetch()} />
        ) : openLots.length === 0 ? (
          <p>No open lots of {symbol}.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Acquired</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Cost per share</th>
                  <th scope="col">Value</th>
                  <th scope="col">P&amp;L</th>
                  <th scope="col">Term</th>
                </tr>
              </thead>
              <tbody>
                {openLots.map((lot) => (
                  <tr key={lot.lot_id}>
                    <td>{lot.acquired_on}</td>
                    <td>{lot.quantity}</td>
                    <td>{formatMoney(lot.cost_per_share)}</td>
                    <td>{formatMoney(lot.market_value)}</td>
                    <td className={tone(lot.unrealized_pnl)}>
                      {formatMoney(lot.unrealized_pnl)} ({formatPercent(lot.unrealized_pnl_percent)})
                    </td>
                    <td>{lot.term}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="holding-news-heading">
        <h2 id="holding-news-heading">News</h2>
        {!news.data ? (
          <QueryStatus error={news.error} retry={() => void news.refetch()} />
        ) : news.data.length === 0 ? (
          <p>No news about {symbol}.</p>
        ) : (
          <ul className="news">
            {news.data.map((item) => (
              <li key={item.url}>
                <span className={`badge ${item.sentiment}`}>{item.sentiment}</span>{' '}
                <a href={item.url} target="_blank" rel="noreferrer noopener">
                  {item.title}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
