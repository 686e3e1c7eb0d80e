import { LedgerEntry } from './analytics/ledger-replay';

/** The entries of one account, in the ledger's order: the whole ledger when no account is named. */
export function entriesOfAccount<T extends LedgerEntry>(
  entries: readonly T[],
  accountId: number | undefined,
): readonly T[] {
  if (accountId === undefined) return entries;
  return entries.filter((entry) => entry.accountId === accountId);
}
