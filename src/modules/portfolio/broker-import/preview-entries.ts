// A preview's entries as kept until their commit: each entry one array of the fields recording it
// needs, in PREVIEW_FIELDS order. As objects, a 20,000-row preview was 6.5 MB of jsonb with every
// field name repeated on every entry (and the file's split terms and broker ids, which recording
// does not read); storing it took seconds on a busy server, past the statement timeout.
import { TransactionKind } from '../analytics/ledger-replay';

/** An entry ready to record, as a preview keeps it (JSON: the instant as ISO text). */
export interface PreviewEntry {
  line: number;
  side: TransactionKind;
  date: string;
  executedAt: string;
  symbol: string | null;
  quantity: number;
  price: number;
  fees: number;
  amount: number | null;
  withholdingTax: number | null;
  splitTo: number | null;
  splitFrom: number | null;
  action: string;
  /** The import key it is recorded under. */
  key: string;
  accountId: number;
}

const PREVIEW_FIELDS = [
  'line',
  'side',
  'date',
  'executedAt',
  'symbol',
  'quantity',
  'price',
  'fees',
  'amount',
  'withholdingTax',
  'splitTo',
  'splitFrom',
  'action',
  'key',
  'accountId',
] as const satisfies readonly (keyof PreviewEntry)[];

/** The stored form: the field names once, then one array of values per entry. */
export interface PackedEntries {
  fields: readonly string[];
  rows: unknown[][];
}

export function packEntries(entries: readonly PreviewEntry[]): PackedEntries {
  return {
    fields: PREVIEW_FIELDS,
    rows: entries.map((entry) => PREVIEW_FIELDS.map((field) => entry[field])),
  };
}

/**
 * The entries of a stored preview. A preview stored before entries were packed (an array of
 * entry objects) is read as it is: it may be committed for an hour after an upgrade.
 */
export function unpackEntries(stored: PackedEntries | PreviewEntry[]): PreviewEntry[] {
  if (Array.isArray(stored)) return stored;
  return stored.rows.map(
    (row) =>
      Object.fromEntries(stored.fields.map((field, index) => [field, row[index]])) as unknown as PreviewEntry,
  );
}
