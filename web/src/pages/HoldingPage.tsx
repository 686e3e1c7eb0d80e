import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '@investment-assistant/client';
import { api, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { ValueChart } from '../components/ValueChart';
import { formatMoney, formatPercent, tone } from '../format';
import { Link } from '../router';

type Transaction = Schemas['TransactionResponse'];
/** The most entries one page of the ledger returns. */
const LEDGER_PAGE = 1000;

/** Every entry of one symbol, page after page (newest first). */
async function ledgerOf(symbol: string): Promise<Transaction[]> {
  const entries: Transaction[] = [];
  for (;;) {
    const page = await unwrap(
      api.GET('/api/v1/portfolio/transactions', {
        params: { query: { symbol, skip: entries.length, limit: LEDGER_PAGE } },
      }),
    );
    entries.push(...page.transactions);
    if (page.transactions.length === 0 || entries.length >= page.total) return entries;
  }
}

/**
 * One holding: its price over the last year, its open lots, its sells with their realized P&L
 * (by the user's cost-basis method), the dividends it paid, and its news with sentiment.
 */
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
  const ledger = useQuery({
    queryKey: ['transactions', symbol, 'all'],
    queryFn: () => ledgerOf(symbol),
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
      {!ledger.data ? (
        <QueryStatus error={ledger.error} retry={() => void ledger.refetch()} />
      ) : (
        <>
          <RealizedHistory symbol={symbol} sells={ledger.data.filter((entry) => entry.side === 'sell')} />
          <DividendIncome
            symbol={symbol}
            dividends={ledger.data.filter((entry) => entry.side === 'dividend')}
          />
        </>
      )}
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

const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;

/** Each sell of the symbol with what it realized; the total leads, as a sentence. */
function RealizedHistory({ symbol, sells }: { symbol: string; sells: Transaction[] }) {
  const total = sum(sells.map((sell) => sell.realized_pnl ?? 0));
  return (
    <section className="card" aria-labelledby="realized-heading">
      <h2 id="realized-heading">Realized P&amp;L</h2>
      {sells.length === 0 ? (
        <p>No sells of {symbol} yet: nothing realized.</p>
      ) : (
        <>
          <p data-testid="realized-summary">
            {sells.length} {sells.length === 1 ? 'sell' : 'sells'} of {symbol} realized{' '}
            <span className={tone(total)}>{formatMoney(total)}</span> (proceeds after fees less the cost of
            the shares sold, by your cost-basis method).
          </p>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Sold on</th>
                  <th scope="col">Shares</th>
                  <th scope="col">Price</th>
                  <th scope="col">Fees</th>
                  <th scope="col">Realized P&amp;L</th>
                </tr>
              </thead>
              <tbody>
                {sells.map((sell) => (
                  <tr key={sell.id}>
                    <td>{sell.executed_at.slice(0, 10)}</td>
                    <td>{sell.quantity}</td>
                    <td>{formatMoney(sell.price)}</td>
                    <td>{formatMoney(sell.fees)}</td>
                    <td className={tone(sell.realized_pnl)}>{formatMoney(sell.realized_pnl)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** The dividends the symbol paid: gross, the tax withheld and net, with their totals. */
function DividendIncome({ symbol, dividends }: { symbol: string; dividends: Transaction[] }) {
  const gross = sum(dividends.map((dividend) => dividend.amount ?? 0));
  const withheld = sum(dividends.map((dividend) => dividend.withholding_tax ?? 0));
  return (
    <section className="card" aria-labelledby="income-heading">
      <h2 id="income-heading">Income</h2>
      {dividends.length === 0 ? (
        <p>No dividends from {symbol} recorded.</p>
      ) : (
        <>
          <p data-testid="income-summary">
            {dividends.length} {dividends.length === 1 ? 'dividend' : 'dividends'} from {symbol}:{' '}
            {formatMoney(gross)} gross, {formatMoney(withheld)} withheld,{' '}
            {formatMoney(sum([gross, -withheld]))} net.
          </p>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Paid on</th>
                  <th scope="col">Gross</th>
                  <th scope="col">Tax withheld</th>
                  <th scope="col">Net</th>
                </tr>
              </thead>
              <tbody>
                {dividends.map((dividend) => (
                  <tr key={dividend.id}>
                    <td>{dividend.executed_at.slice(0, 10)}</td>
                    <td>{formatMoney(dividend.amount)}</td>
                    <td>{formatMoney(dividend.withholding_tax ?? 0)}</td>
                    <td>{formatMoney(sum([dividend.amount ?? 0, -(dividend.withholding_tax ?? 0)]))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
