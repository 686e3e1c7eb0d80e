import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { isValidationError } from '@investment-assistant/client';
import type { Schemas, ValidationIssue } from '@investment-assistant/client';
import { api, ApiError, unwrap } from '../api';
import { Field } from '../components/Field';
import { QueryStatus } from '../components/Status';
import { formatMoney } from '../format';
import { CsvImport } from './CsvImport';

/** The kinds this form records; transfers carry other fields (and have their own route). */
const SIDES = [
  'buy',
  'sell',
  'dividend',
  'split',
  'deposit',
  'withdrawal',
  'fee',
  'interest',
] as const satisfies readonly Schemas['CreateTransactionDto']['side'][];
type Side = (typeof SIDES)[number];
type Transaction = Schemas['TransactionResponse'];

const isEditable = (transaction: Transaction): transaction is Transaction & { side: Side } =>
  (SIDES as readonly string[]).includes(transaction.side);
const describe = (transaction: Transaction) =>
  `the ${transaction.side} of ${transaction.executed_at.slice(0, 10)}${transaction.symbol ? ` (${transaction.symbol})` : ''}`;
/** Which inputs each kind takes (the API says which are required when one is missing). */
const INPUTS: Record<Side, ('symbol' | 'quantity' | 'price' | 'fees' | 'amount' | 'ratio')[]> = {
  buy: ['symbol', 'quantity', 'price', 'fees'],
  sell: ['symbol', 'quantity', 'price', 'fees'],
  dividend: ['symbol', 'amount'],
  split: ['symbol', 'ratio'],
  deposit: ['amount'],
  withdrawal: ['amount'],
  fee: ['amount'],
  interest: ['amount'],
};

export function TransactionsPage() {
  const [symbol, setSymbol] = useState('');
  const [editing, setEditing] = useState<(Transaction & { side: Side }) | null>(null);
  const [edited, setEdited] = useState<string | null>(null);
  const transactions = useQuery({
    queryKey: ['transactions', symbol],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/portfolio/transactions', {
          params: { query: { limit: 100, ...(symbol ? { symbol } : {}) } },
        }),
      ),
  });
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/v1/portfolio/transactions/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  return (
    <>
      <h1>Transactions</h1>
      <TransactionForm
        key={editing?.id ?? 'new'}
        editing={editing}
        onDone={(saved) => {
          setEdited(saved && editing ? `Saved ${describe(editing)}.` : null);
          setEditing(null);
        }}
      />
      {edited && <p role="status">{edited}</p>}
      <CsvImport />
      <section className="card" aria-labelledby="ledger-heading">
        <h2 id="ledger-heading">Ledger</h2>
        <div className="field inline">
          <label htmlFor="ledger-symbol">Filter by symbol</label>
          <input
            id="ledger-symbol"
            value={symbol}
            onChange={(event) => setSymbol(event.target.value.toUpperCase())}
          />
        </div>
        {remove.error && (
          <p role="alert" className="error">
            {remove.error.message}
          </p>
        )}
        {!transactions.data ? (
          <QueryStatus error={transactions.error} retry={() => void transactions.refetch()} />
        ) : transactions.data.transactions.length === 0 ? (
          <p>No transactions{symbol ? ` for ${symbol}` : ''}.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Symbol</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Price</th>
                  <th scope="col">Amount</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {transactions.data.transactions.map((transaction) => (
                  <tr key={transaction.id}>
                    <td>{transaction.executed_at.slice(0, 10)}</td>
                    <td>{transaction.side}</td>
                    <td>{transaction.symbol ?? '—'}</td>
                    <td>{transaction.quantity ?? transaction.ratio ?? '—'}</td>
                    <td>{transaction.price === undefined ? '—' : formatMoney(transaction.price)}</td>
                    <td>{transaction.amount === undefined ? '—' : formatMoney(transaction.amount)}</td>
                    <td className="row-actions">
                      {isEditable(transaction) && (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Edit ${describe(transaction)}`}
                          onClick={() => {
                            setEdited(null);
                            setEditing(transaction);
                          }}
                        >
                          Edit
                        </button>
                      )}
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Delete ${describe(transaction)}`}
                        onClick={() => remove.mutate(transaction.id)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <LedgerSettings />
    </>
  );
}

/** The portfolio's settings (GET/PUT /portfolio/settings) as the ledger's form shows them. */
function usePortfolioSettings() {
  return useQuery({
    queryKey: ['portfolio-settings'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/settings')),
  });
}

const COST_BASIS_METHODS: {
  value: Schemas['PortfolioSettingsResponse']['cost_basis_method'];
  label: string;
}[] = [
  { value: 'average', label: 'Average cost' },
  { value: 'fifo', label: 'First in, first out (FIFO)' },
  { value: 'specific', label: 'Specific lots (chosen at each sell)' },
];

/** How sells are matched to buys, and whether cash may go below zero; each change is saved at once. */
function LedgerSettings() {
  const settings = usePortfolioSettings();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Schemas['UpdatePortfolioSettingsDto']) =>
      unwrap(api.PUT('/api/v1/portfolio/settings', { body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(['portfolio-settings'], saved);
      void queryClient.invalidateQueries();
    },
  });
  return (
    <section className="card" aria-labelledby="ledger-settings-heading">
      <h2 id="ledger-settings-heading">Ledger settings</h2>
      {!settings.data ? (
        <QueryStatus error={settings.error} retry={() => void settings.refetch()} />
      ) : (
        <>
          <div className="field">
            <label htmlFor="cost-basis-method">Cost-basis method</label>
            <select
              id="cost-basis-method"
              value={settings.data.cost_basis_method}
              disabled={save.isPending}
              aria-describedby="cost-basis-hint"
              onChange={(event) =>
                save.mutate({
                  cost_basis_method: event.target
                    .value as Schemas['PortfolioSettingsResponse']['cost_basis_method'],
                })
              }
            >
              {COST_BASIS_METHODS.map((method) => (
                <option key={method.value} value={method.value}>
                  {method.label}
                </option>
              ))}
            </select>
            <small id="cost-basis-hint" className="hint">
              Decides the cost of the shares each sell closes, and so the realized and unrealized P&amp;L.
            </small>
          </div>
          <div className="field inline">
            <input
              id="strict-cash"
              type="checkbox"
              checked={settings.data.strict_cash}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ strict_cash: event.target.checked })}
            />
            <label htmlFor="strict-cash">
              Strict cash: refuse an entry that would take the cash balance below zero
            </label>
          </div>
          {save.error && (
            <p role="alert" className="error">
              {save.error.message}
            </p>
          )}
          {save.isSuccess && <p role="status">Saved.</p>}
        </>
      )}
    </section>
  );
}

type Lot = Schemas['TaxLotResponse'];

/**
 * Under the `specific` method a sell names the lots it closes: the open lots of the symbol, each
 * with the shares to take from it (left empty, the sell closes the oldest lots first).
 */
function LotChoice({ lots, errors }: { lots: Lot[]; errors: string[] }) {
  return (
    <fieldset className="lots" aria-describedby="lots-hint">
      <legend>Lots to sell</legend>
      <small id="lots-hint" className="hint">
        Shares to take from each open lot, adding up to the quantity sold; leave all empty to sell the oldest
        first.
      </small>
      {lots.length === 0 ? (
        <p>No open lots of this symbol.</p>
      ) : (
        lots.map((lot) => (
          <Field
            key={lot.lot_id}
            name={`lot-${lot.lot_id}`}
            inputMode="decimal"
            label={`Shares from the lot bought ${lot.acquired_on} (${lot.quantity} held at ${formatMoney(lot.cost_per_share)})`}
          />
        ))
      )}
      {errors.map((error) => (
        <p key={error} role="alert" className="error">
          {error}
        </p>
      ))}
    </fieldset>
  );
}

/** A 422's issues by field name (the last element of `loc`), the lots' issues apart. */
function issuesOf(error: unknown): { fields: Record<string, string>; lots: string[] } {
  const issues: ValidationIssue[] =
    error instanceof ApiError && error.body && isValidationError(error.body) ? error.body.detail : [];
  const fields: Record<string, string> = {};
  const lots: string[] = [];
  for (const issue of issues) {
    if (issue.loc.includes('lots')) lots.push(issue.msg);
    else fields[String(issue.loc[issue.loc.length - 1])] = issue.msg;
  }
  return { fields, lots };
}

/**
 * Adds one entry, or with `editing` changes that one (PATCH, the same rules as a new entry), calling
 * `onDone` after a saved edit (true) or a cancel (false); on a refused save the inputs keep what
 * was typed and each error sits at its field.
 */
function TransactionForm({
  editing,
  onDone,
}: {
  editing: (Transaction & { side: Side }) | null;
  onDone: (saved: boolean) => void;
}) {
  const [side, setSide] = useState<Side>(editing?.side ?? 'buy');
  const [symbol, setSymbol] = useState(editing?.symbol ?? '');
  const settings = usePortfolioSettings();
  const choosesLots = side === 'sell' && settings.data?.cost_basis_method === 'specific';
  const lots = useQuery({
    queryKey: ['lots'],
    queryFn: () => unwrap(api.GET('/api/v1/portfolio/lots')),
    enabled: choosesLots,
  });
  const lotsOfSymbol = lots.data?.lots.filter((lot) => lot.symbol === symbol.trim().toUpperCase()) ?? [];
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Schemas['CreateTransactionDto']) =>
      editing
        ? unwrap(
            api.PATCH('/api/v1/portfolio/transactions/{id}', { params: { path: { id: editing.id } }, body }),
          )
        : unwrap(api.POST('/api/v1/portfolio/transactions', { body })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const { fields, lots: lotErrors } = issuesOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const number = (name: string) => (text(name) === '' ? undefined : Number(text(name)));
    const date = text('executed_at');
    const body: Schemas['CreateTransactionDto'] = {
      side,
      // An edit that keeps the day keeps the recorded time of day too.
      executed_at:
        date === '' ? '' : editing?.executed_at.startsWith(date) ? editing.executed_at : `${date}T16:00:00Z`,
      ...(INPUTS[side].includes('symbol') ? { symbol: text('symbol').toUpperCase() } : {}),
      ...(INPUTS[side].includes('quantity') ? { quantity: number('quantity') } : {}),
      ...(INPUTS[side].includes('price') ? { price: number('price') } : {}),
      ...(INPUTS[side].includes('fees') && number('fees') !== undefined ? { fees: number('fees') } : {}),
      ...(INPUTS[side].includes('amount') ? { amount: number('amount') } : {}),
      ...(INPUTS[side].includes('ratio') ? { ratio: text('ratio') } : {}),
    };
    const chosen = choosesLots
      ? lotsOfSymbol
          .map((lot) => ({ lot_id: lot.lot_id, quantity: number(`lot-${lot.lot_id}`) ?? 0 }))
          .filter((lot) => lot.quantity !== 0)
      : [];
    if (chosen.length > 0) body.lots = chosen;
    create.mutate(body, {
      onSuccess: () => {
        if (editing) return onDone(true);
        (event.target as HTMLFormElement).reset();
        setSymbol('');
      },
    });
  };
  const has = (input: (typeof INPUTS)[Side][number]) => INPUTS[side].includes(input);
  const initial = (value: number | string | null | undefined) => (value === null ? undefined : value);
  return (
    <section className="card" aria-labelledby="add-heading">
      <h2 id="add-heading">{editing ? `Edit ${describe(editing)}` : 'Add a transaction'}</h2>
      <form onSubmit={submit} noValidate className="grid-form">
        <div className="field">
          <label htmlFor="transaction-side">Kind</label>
          <select
            id="transaction-side"
            value={side}
            onChange={(event) => setSide(event.target.value as Side)}
          >
            {SIDES.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Date"
          name="executed_at"
          type="date"
          error={fields.executed_at}
          defaultValue={editing?.executed_at.slice(0, 10)}
        />
        {has('symbol') && (
          <Field
            label="Symbol"
            name="symbol"
            error={fields.symbol}
            autoCapitalize="characters"
            defaultValue={initial(editing?.symbol)}
            onChange={(event) => setSymbol(event.target.value)}
          />
        )}
        {has('quantity') && (
          <Field
            label="Quantity"
            name="quantity"
            inputMode="decimal"
            error={fields.quantity}
            defaultValue={initial(editing?.quantity)}
          />
        )}
        {has('price') && (
          <Field
            label="Price (USD)"
            name="price"
            inputMode="decimal"
            error={fields.price}
            defaultValue={initial(editing?.price)}
          />
        )}
        {has('fees') && (
          <Field
            label="Fees (USD)"
            name="fees"
            inputMode="decimal"
            error={fields.fees}
            defaultValue={initial(editing?.fees)}
          />
        )}
        {has('amount') && (
          <Field
            label="Amount (USD)"
            name="amount"
            inputMode="decimal"
            error={fields.amount}
            defaultValue={initial(editing?.amount)}
          />
        )}
        {has('ratio') && (
          <Field
            label="Ratio (e.g. 2:1)"
            name="ratio"
            error={fields.ratio}
            defaultValue={initial(editing?.ratio)}
          />
        )}
        {choosesLots && symbol.trim() !== '' && lots.data && (
          <LotChoice lots={lotsOfSymbol} errors={lotErrors} />
        )}
        {create.error && Object.keys(fields).length === 0 && lotErrors.length === 0 && (
          <p role="alert" className="error">
            {create.error.message}
          </p>
        )}
        {create.isSuccess && <p role="status">Recorded.</p>}
        <button type="submit" disabled={create.isPending}>
          {editing ? 'Save' : 'Add'}
        </button>
        {editing && (
          <button type="button" className="secondary" onClick={() => onDone(false)}>
            Cancel
          </button>
        )}
      </form>
    </section>
  );
}
