import { useQuery } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { Field } from '../components/Field';
import { QueryStatus } from '../components/Status';
import { SymbolSearch, Watchlist } from '../components/Watchlist';
import { formatMoney, formatPercent, tone } from '../format';

type Sentiment = 'positive' | 'negative' | 'neutral';

export function MarketsPage() {
  const summary = useQuery({
    queryKey: ['market-summary'],
    queryFn: () => unwrap(api.GET('/api/v1/market/summary')),
  });
  return (
    <>
      <h1>Markets &amp; news</h1>
      {!summary.data ? (
        <QueryStatus error={summary.error} retry={() => void summary.refetch()} />
      ) : (
        <>
          <section className="tiles" aria-label="Indices">
            {summary.data.indices.map((index) => (
              <div className="tile" key={index.name}>
                <span className="tile-label">{index.name}</span>
                <span className="tile-value">{index.value.toLocaleString('en-US')}</span>
                <span className={tone(index.change)}>{formatPercent(index.changePercent)}</span>
              </div>
            ))}
          </section>
          <div className="columns">
            <Movers title="Top gainers" stocks={summary.data.topGainers} />
            <Movers title="Top losers" stocks={summary.data.topLosers} />
          </div>
        </>
      )}
      <div className="columns">
        <Watchlist />
        <SymbolSearch />
      </div>
      <News />
    </>
  );
}

function Movers({
  title,
  stocks,
}: {
  title: string;
  stocks: { symbol: string; price: number; changePercent: number }[];
}) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      <ul className="plain">
        {stocks.map((stock) => (
          <li key={stock.symbol}>
            <strong>{stock.symbol}</strong> {formatMoney(stock.price)}{' '}
            <span className={tone(stock.changePercent)}>{formatPercent(stock.changePercent)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

interface NewsFilters {
  sentiment: Sentiment | '';
  symbol: string;
  keywords: string;
}

/** The news feed with its filters: sentiment at once, a symbol and keywords when applied. */
function News() {
  const [filters, setFilters] = useState<NewsFilters>({ sentiment: '', symbol: '', keywords: '' });
  const news = useQuery({
    queryKey: ['news', filters],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/news', {
          params: {
            query: {
              limit: 20,
              ...(filters.sentiment ? { sentiment: filters.sentiment } : {}),
              ...(filters.symbol ? { symbol: filters.symbol } : {}),
              ...(filters.keywords ? { keywords: filters.keywords } : {}),
            },
          },
        }),
      ),
  });
  const refused = news.error instanceof ApiError && news.error.status === 422 ? news.error : null;
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilters((previous) => ({
      ...previous,
      symbol: String(form.get('symbol')).trim(),
      keywords: String(form.get('keywords')).trim(),
    }));
  };
  return (
    <section className="card" aria-labelledby="news-heading">
      <h2 id="news-heading">News</h2>
      <form className="grid-form" aria-label="News filters" onSubmit={apply}>
        <div className="field">
          <label htmlFor="news-sentiment">Sentiment</label>
          <select
            id="news-sentiment"
            value={filters.sentiment}
            onChange={(event) =>
              setFilters((previous) => ({ ...previous, sentiment: event.target.value as Sentiment | '' }))
            }
          >
            <option value="">All</option>
            <option value="positive">Positive</option>
            <option value="neutral">Neutral</option>
            <option value="negative">Negative</option>
          </select>
        </div>
        <Field label="Symbol" name="symbol" error={refused?.errorAt('symbol')} autoComplete="off" />
        <Field
          label="Keywords"
          name="keywords"
          hint="Comma-separated alternatives"
          error={refused?.errorAt('keywords')}
          autoComplete="off"
        />
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      {refused ? null : !news.data ? (
        <QueryStatus error={news.error} retry={() => void news.refetch()} />
      ) : news.data.length === 0 ? (
        <p>No news.</p>
      ) : (
        <ul className="news">
          {news.data.map((item) => (
            <li key={item.url}>
              <span className={`badge ${item.sentiment}`}>{item.sentiment}</span>{' '}
              <a href={item.url} target="_blank" rel="noreferrer noopener">
                {item.title}
              </a>
              <small>
                {' '}
                {item.source} · {new Date(item.publishedAt).toLocaleDateString('en-US')}
              </small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
