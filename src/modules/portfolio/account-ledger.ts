import { LedgerEntry } from './analytics/ledger-replay';

/** The filtered ledgers of each frozen ledger array, by account: computed once per ledger version. */
const ledgersByAccount = new WeakMap<readonly LedgerEntry[], Map<number, readonly LedgerEntry[]>>();

/**
 * The entries of one account, in the ledger's order: the whole ledger when no account is named. A
 * frozen ledger gives the same frozen array each time, so the readers' per-version caches (the
 * replays by method) hold for one account as they do for all of them.
 */
export function entriesOfAccount<T extends LedgerEntry>(
  entries: readonly T[],
  accountId: number | undefined,
): readonly T[] {
  if (accountId === undefined) return entries;
  let byAccount = ledgersByAccount.get(entries);
  const cached = byAccount?.get(accountId);
  if (cached) return cached as readonly T[];
  const filtered = Object.freeze(entries.filter((entry) => entry.accountId === accountId));
  if (Object.isFrozen(entries)) {
    if (!byAccount) {
      byAccount = new Map();
      ledgersByAccount.set(entries, byAccount);
    }
    byAccount.set(accountId, filtered);
  }
  return filtered;
}
