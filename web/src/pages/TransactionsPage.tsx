import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import type { Schemas } from '@investment-assistant/client';
import { api, ApiError, unwrap } from '../api';
import { Field } from '../components/Field';
import { QueryStatus } from '../components/Status';
import { formatMoney } from '../format';

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
      <TransactionForm />
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
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Delete the ${transaction.side} of ${transaction.executed_at.slice(0, 10)}${transaction.symbol ? ` (${transaction.symbol})` : ''}`}
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
    </>
  );
}

/** Adds one entry; on a refused save the inputs keep what was typed and each error sits at its field. */
function TransactionForm() {
  const [side, setSide] = useState<Side>('buy');
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Schemas['CreateTransactionDto']) =>
      unwrap(api.POST('/api/v1/portfolio/transactions', { body })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const number = (name: string) => (text(name) === '' ? undefined : Number(text(name)));
    const date = text('executed_at');
    const body: Schemas['CreateTransactionDto'] = {
      side,
      executed_at: date === '' ? '' : `${date}T16:00:00Z`,
      ...(INPUTS[side].includes('symbol') ? { symbol: text('symbol').toUpperCase() } : {}),
      ...(INPUTS[side].includes('quantity') ? { quantity: number('quantity') } : {}),
      ...(INPUTS[side].includes('price') ? { price: number('price') } : {}),
      ...(INPUTS[side].includes('fees') && number('fees') !== undefined ? { fees: number('fees') } : {}),
      ...(INPUTS[side].includes('amount') ? { amount: number('amount') } : {}),
      ...(INPUTS[side].includes('ratio') ? { ratio: text('ratio') } : {}),
    };
    create.mutate(body, { onSuccess: () => (event.target as HTMLFormElement).reset() });
  };
  const has = (input: (typeof INPUTS)[Side][number]) => INPUTS[side].includes(input);
  return (
    <section className="card" aria-labelledby="add-heading">
      <h2 id="add-heading">Add a transaction</h2>
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
        <Field label="Date" name="executed_at" type="date" error={fields.executed_at} />
        {has('symbol') && (
          <Field label="Symbol" name="symbol" error={fields.symbol} autoCapitalize="characters" />
        )}
        {has('quantity') && (
          <Field label="Quantity" name="quantity" inputMode="decimal" error={fields.quantity} />
        )}
        {has('price') && <Field label="Price (USD)" name="price" inputMode="decimal" error={fields.price} />}
        {has('fees') && <Field label="Fees (USD)" name="fees" inputMode="decimal" error={fields.fees} />}
        {has('amount') && (
          <Field label="Amount (USD)" name="amount" inputMode="decimal" error={fields.amount} />
        )}
        {has('ratio') && <Field label="Ratio (e.g. 2:1)" name="ratio" error={fields.ratio} />}
        {create.error && Object.keys(fields).length === 0 && (
          <p role="alert" className="error">
            {create.error.message}
          </p>
        )}
        {create.isSuccess && <p role="status">Recorded.</p>}
        <button type="submit" disabled={create.isPending}>
          Add
        </button>
      </form>
    </section>
  );
}
