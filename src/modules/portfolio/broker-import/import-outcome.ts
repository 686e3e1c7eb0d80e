import { LedgerEntry, replayLedger, TransactionKind } from '../analytics/ledger-replay';
import { BrokerFormat } from './broker-export';
import { fitToLedger, inRecordingOrder } from './ledger-fit';
import { readBrokerExport, ReadExport } from './read-broker-export';

/** What importing an export into an empty ledger leaves: by kind, cash and positions (for tests and the benchmark). */
export interface ImportOutcome {
  parsed: ReadExport;
  counts: Partial<Record<TransactionKind, number>>;
  cash: number;
  positions: Record<string, number>;
  rejected: { line: number; reason: string }[];
}

export function importIntoEmptyLedger(text: string, format: BrokerFormat | 'auto', now: Date): ImportOutcome {
  const parsed = readBrokerExport(text, format, { now, maxRows: 100_000 });
  const fit = fitToLedger([], inRecordingOrder(parsed.entries), now);
  const entries: LedgerEntry[] = fit.accepted.map((entry, index) => ({
    ...entry,
    id: index + 1,
    tradeDate: entry.date,
  }));
  const replay = replayLedger(entries);
  const counts: Partial<Record<TransactionKind, number>> = {};
  for (const entry of entries) counts[entry.side] = (counts[entry.side] ?? 0) + 1;
  const positions: Record<string, number> = {};
  for (const [symbol, position] of replay.positions)
    positions[symbol] = Math.round(position.quantity * 1e6) / 1e6;
  return {
    parsed,
    counts,
    cash: Math.round(replay.cashBalance * 100) / 100,
    positions,
    rejected: [...parsed.rejected, ...fit.rejected].sort((a, b) => a.line - b.line),
  };
}
