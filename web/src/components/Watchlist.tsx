import type { Schemas } from '@investment-assistant/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { formatMoney, formatPercent, tone } from '../format';
import { fetchPreferences, Preferences, savePreferences } from '../preferences';
import { QueryStatus } from './Status';

type Quote = Schemas['StockResponse'];
/** What `GET /market/stocks/batch` takes at once. */
const BATCH_SIZE = 10;

/** Quotes of `symbols` by symbol, fetched ten at a time; a symbol without data is absent. */
async function fetchQuotes(symbols: readonly string[]): Promise<Record<string, Quote>> {
  const batches: string[][] = [];
  for (let start = 0; start < symbols.length; start += BATCH_SIZE)
    batches.push(symbols.slice(start, start + BATCH_SIZE));
  const answers = await Promise.all(
    batches.map((batch) =>
      unwrap(api.GET('/api/v1/market/stocks/batch', { params: { query: { symbols: batch.join(',') } } })),
    ),
  );
  const quotes: Record<string, Quote> = {};
  for (const answer of answers)
    for (const [symbol, entry] of Object.entries(answer.data)) if ('price' in entry) quotes[symbol] = entry;
  return quotes;
}

function useQuotes(symbols: readonly string[]) {
  return useQuery({
    queryKey: ['quotes', symbols.join(',')],
    queryFn: () => fetchQuotes(symbols),
    enabled: symbols.length > 0,
  });
}

/** The watchlist and its editor: replaced as a whole, the record created on the first save. */
function useWatchlist() {
  const queryClient = useQueryClient();
  const preferences = useQuery({ queryKey: ['preferences'], queryFn: fetchPreferences });
  const save = useMutation({
    mutationFn: (symbols: string[]) =>
      preferences.data
        ? unwrap(api.PATCH('/api/v1/preferences/watchlist', { body: symbols }))
        : savePreferences({ watchlist: symbols }, false),
    onSuccess: (record: Preferences) => {
      queryClient.setQueryData(['preferences'], record);
      void queryClient.invalidateQueries({ queryKey: ['portfolio'] });
    },
  });
  return { preferences, symbols: preferences.data?.watchlist ?? [], save };
}

/** The watchlist with quotes, each symbol removable, and a field to add one. */
export function Watchlist() {
  const { preferences, symbols, save } = useWatchlist();
  const quotes = useQuotes(symbols);
  const [symbol, setSymbol] = useState('');
  const add = (event: FormEvent) => {
    event.preventDefault();
    const wanted = symbol.trim().toUpperCase();
    if (!wanted) return;
    save.mutate([...symbols, wanted], { onSuccess: () => setSymbol('') });
  };
  return (
    <section className="card" aria-labelledby="watchlist-heading">
      <h2 id="watchlist-heading">Watchlist</h2>
      {preferences.data === undefined ? (
        <QueryStatus error={preferences.error} retry={() => void preferences.refetch()} />
      ) : symbols.length === 0 ? (
        <p>Nothing watched yet: add a symbol, or find one below.</p>
      ) : (
        <QuoteTable
          label="Watched symbols"
          rows={symbols.map((watched) => ({ symbol: watched, quote: quotes.data?.[watched] }))}
          action={(watched) => (
            <button
              type="button"
              className="secondary"
              disabled={save.isPending}
              onClick={() => save.mutate(symbols.filter((candidate) => candidate !== watched))}
              aria-label={`Remove ${watched} from the watchlist`}
            >
              Remove
            </button>
          )}
        />
      )}
      <form onSubmit={add} className="field inline" noValidate>
        <label htmlFor="watchlist-add">Add a symbol</label>
        <input
          id="watchlist-add"
          value={symbol}
          onChange={(event) => setSymbol(event.target.value)}
          autoComplete="off"
          aria-describedby={save.error ? 'watchlist-error' : undefined}
          aria-invalid={save.error ? true : undefined}
        />
        <button type="submit" disabled={save.isPending}>
          Add
        </button>
      </form>
      {save.error && (
        <p id="watchlist-error" role="alert" className="error">
          {save.error.message}
        </p>
      )}
    </section>
  );
}

/** Tickers and company names matching a query, with their quotes; each can join the watchlist. */
export function SymbolSearch() {
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  const { symbols, save } = useWatchlist();
  const matches = useQuery({
    queryKey: ['symbol-search', searched],
    queryFn: () =>
      unwrap(api.GET('/api/v1/market/search', { params: { query: { query: searched, limit: 10 } } })),
    enabled: searched !== '',
  });
  const quotes = useQuotes(matches.data?.map((match) => match.symbol) ?? []);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setSearched(query.trim());
  };
  return (
    <section className="card" aria-labelledby="search-heading">
      <h2 id="search-heading">Find a symbol</h2>
      <form onSubmit={search} className="field inline" role="search" noValidate>
        <label htmlFor="symbol-search">Company or ticker</label>
        <input
          id="symbol-search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
        />
        <button type="submit">Search</button>
      </form>
      {searched !== '' &&
        (!matches.data ? (
          <QueryStatus error={matches.error} retry={() => void matches.refetch()} />
        ) : matches.data.length === 0 ? (
          <p role="status">Nothing matches “{searched}”.</p>
        ) : (
          <QuoteTable
            label="Matching symbols"
            rows={matches.data.map((match) => ({
              symbol: match.symbol,
              name: match.name,
              quote: quotes.data?.[match.symbol],
            }))}
            action={(found) =>
              symbols.includes(found) ? (
                <span>Watched</span>
              ) : (
                <button
                  type="button"
                  className="secondary"
                  disabled={save.isPending}
                  onClick={() => save.mutate([...symbols, found])}
                  aria-label={`Watch ${found}`}
                >
                  Watch
                </button>
              )
            }
          />
        ))}
    </section>
  );
}

function QuoteTable({
  label,
  rows,
  action,
}: {
  label: string;
  rows: { symbol: string; name?: string; quote?: Quote }[];
  action: (symbol: string) => React.ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Name</th>
            <th scope="col">Price</th>
            <th scope="col">Day change</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ symbol, name, quote }) => (
            <tr key={symbol}>
              <th scope="row">{symbol}</th>
              <td>{quote?.name ?? name ?? '—'}</td>
              <td>{formatMoney(quote?.price)}</td>
              <td className={tone(quote?.changePercent)}>{formatPercent(quote?.changePercent)}</td>
              <td>{action(symbol)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
