// Parses a CSV ledger upload into ledger rows, collecting a problem for every bad cell so that one
// 422 can list them all. Problems are placed relative to the file: `[row, column]`, rows numbered
// from 0 (the first line after the header), `['header']`, or `[]` for the file as a whole.
//
// A file without a `type` column is the original format: trades only, each row a buy or a sell
// (`side`). With a `type` column a row may be any kind (an empty type falls back to the row's side)
// and has the cells its kind needs (KIND_FIELDS): the columns a file does not use may be left out.
import type { FieldProblem } from '../../../common/errors/field-problems';
import { nulCharacterProblem } from '../../../common/validation/text-rules';
import { TRANSACTION_KINDS, TransactionKind } from '../analytics/ledger-replay';
import {
  EARLIEST_TRADE_DATE,
  isOnOrAfterEarliestTrade,
  MAX_CASH,
  MAX_FEES,
  MAX_PRICE,
  MAX_QUANTITY,
  MIN_AMOUNT,
} from '../ledger-limits';
import { tradeDateOf } from '../trade-date';
import {
  acceptsField,
  KindField,
  kindFieldProblems,
  parseSplitRatio,
  requiresField,
} from '../transaction-fields';
import { splitCsv } from '../../../common/csv/split-csv';

/** One row as the ledger records it: trades fill quantity, price and fees, other kinds 0 there. */
export interface CsvLedgerRow {
  row: number;
  executedAt: Date;
  /** The exchange date it belongs to (see tradeDateOf). */
  tradeDate: string;
  symbol: string | null;
  side: TransactionKind;
  quantity: number;
  price: number;
  fees: number;
  /** Only on the rows of the kinds that have them (see LedgerEntry). */
  amount?: number;
  withholdingTax?: number;
  splitTo?: number;
  splitFrom?: number;
  note: string | null;
}

export interface ParsedTransactionsCsv {
  /** The rows without any bad cell. */
  rows: CsvLedgerRow[];
  /** Every well-formed symbol cell, also of rows with other bad cells, to check against the provider. */
  symbolCells: { row: number; symbol: string }[];
  problems: FieldProblem[];
}

export const REQUIRED_COLUMNS = ['date', 'symbol', 'side', 'quantity', 'price'] as const;
export const OPTIONAL_COLUMNS = ['fees', 'note'] as const;
export const CSV_HEADER = 'date,symbol,side,quantity,price,fees';
const KNOWN_COLUMNS: readonly string[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];
/** With a `type` column only the date and the type are required; every kind's cells are known. */
export const TYPED_REQUIRED_COLUMNS = ['date', 'type'] as const;
export const TYPED_CSV_HEADER = 'date,type,symbol,quantity,price,fees,amount,withholding_tax,ratio';
const TYPED_KNOWN_COLUMNS: readonly string[] = [...TYPED_CSV_HEADER.split(','), 'side', 'note'];

/** Most columns a header may have (a typed header has 11 known ones), checked before any other rule. */
export const MAX_CSV_COLUMNS = 32;
/** Most column names one header problem names; the rest are counted. */
const MAX_NAMED_COLUMNS = 5;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
export const SYMBOL_PATTERN = /^[A-Za-z][A-Za-z0-9.-]{0,15}$/;
const NOTE_MAX_LENGTH = 500;
const UNCLOSED_QUOTE =
  'an opening quote has no closing quote, so the rest of the file would be read as this value';

interface AmountRule {
  /** Zero allowed (fees) or not (quantity, price: Pydantic's gt=0). */
  zero: boolean;
  min: number;
  max: number;
}
const QUANTITY: AmountRule = { zero: false, min: MIN_AMOUNT, max: MAX_QUANTITY };
const PRICE: AmountRule = { zero: false, min: MIN_AMOUNT, max: MAX_PRICE };
const FEES: AmountRule = { zero: true, min: 0, max: MAX_FEES };
const CASH_AMOUNT: AmountRule = { zero: false, min: MIN_AMOUNT, max: MAX_CASH };
const WITHHOLDING_TAX: AmountRule = { zero: true, min: 0, max: MAX_CASH };
const AMOUNT_RULES = {
  quantity: QUANTITY,
  price: PRICE,
  fees: FEES,
  amount: CASH_AMOUNT,
  withholding_tax: WITHHOLDING_TAX,
};
type AmountField = keyof typeof AMOUNT_RULES;

export function parseTransactionsCsv(text: string, now: Date, maxRows: number): ParsedTransactionsCsv {
  const split = splitCsv(text.replace(/^\uFEFF/, ''));
  const records = split.records.filter(
    (cells, index) =>
      !(cells.length === 1 && cells[0].trim() === '') ||
      (split.unclosedQuoteCell !== null && index === split.records.length - 1),
  );
  if (split.unclosedQuoteCell !== null) {
    return { rows: [], symbolCells: [], problems: [unclosedQuoteProblem(records, split.unclosedQuoteCell)] };
  }
  if (records.length === 0) {
    return {
      rows: [],
      symbolCells: [],
      problems: [{ path: [], message: `CSV is empty: expected the header ${CSV_HEADER}`, type: 'missing' }],
    };
  }
  const header = records[0].map((name) => name.trim().toLowerCase());
  const headerProblem = checkHeader(header);
  if (headerProblem) return { rows: [], symbolCells: [], problems: [headerProblem] };
  const dataRecords = records.slice(1);
  if (dataRecords.length === 0) {
    return {
      rows: [],
      symbolCells: [],
      problems: [
        { path: [], message: 'CSV has a header but no rows', type: 'too_short', ctx: { min_length: 1 } },
      ],
    };
  }
  if (dataRecords.length > maxRows) {
    return {
      rows: [],
      symbolCells: [],
      problems: [
        {
          path: [],
          message: `CSV should have at most ${maxRows} rows, not ${dataRecords.length}`,
          type: 'too_long',
          ctx: { max_length: maxRows, actual_length: dataRecords.length },
        },
      ],
    };
  }

  const typed = header.includes('type');
  const rows: CsvLedgerRow[] = [];
  const symbolCells: { row: number; symbol: string }[] = [];
  const problems: FieldProblem[] = [];
  dataRecords.forEach((cells, row) => {
    if (cells.length !== header.length) {
      problems.push({
        path: [row],
        message: `row has ${cells.length} values but the header has ${header.length} columns`,
      });
      return;
    }
    const value = (column: string) => {
      const index = header.indexOf(column);
      return index === -1 ? '' : cells[index].trim();
    };
    const nulCells = header.filter((_column, index) => cells[index].includes('\u0000'));
    if (nulCells.length > 0) {
      problems.push(...nulCells.map((column) => nulCharacterProblem([row, column])));
      return;
    }
    const rowProblems: FieldProblem[] = [];
    const problem = (column: string, detail: Omit<FieldProblem, 'path'>) =>
      rowProblems.push({ path: [row, column], ...detail });

    const executedAt = parseDate(value('date'), now, (detail) => problem('date', detail));
    const side =
      typed && value('type') !== ''
        ? parseKind(value('type'), (detail) => problem('type', detail))
        : parseSide(value('side'), (detail) => problem('side', detail));
    // An old-format row with a bad side is still read as a trade, the cells every such row has; a
    // row of unknown type has no cells to check.
    const kind = side ?? (typed ? null : 'buy');
    const cellOf = (field: KindField) => (value(field) === '' ? undefined : value(field));
    const wanted = (field: KindField) =>
      kind !== null &&
      (requiresField(kind, field) || (acceptsField(kind, field) && cellOf(field) !== undefined));
    const symbol = wanted('symbol')
      ? parseSymbol(value('symbol'), (detail) => problem('symbol', detail))
      : null;
    if (symbol) symbolCells.push({ row, symbol });
    const amountOf = (field: AmountField): number | null => {
      if (!wanted(field)) return null;
      return parseAmount(value(field), AMOUNT_RULES[field], (detail) => problem(field, detail));
    };
    const quantity = amountOf('quantity');
    const price = amountOf('price');
    const fees = amountOf('fees');
    const amount = amountOf('amount');
    const withholdingTax = amountOf('withholding_tax');
    const ratio = wanted('ratio') ? value('ratio') : undefined;
    if (ratio === '') problem('ratio', { type: 'missing' });
    if (side) {
      const kindProblems = kindFieldProblems(side, {
        ...Object.fromEntries(
          (['symbol', 'quantity', 'price', 'fees', 'amount', 'withholding_tax', 'ratio'] as const).map(
            (field) => [field, cellOf(field)],
          ),
        ),
        amount: amount ?? cellOf('amount'),
        withholding_tax: withholdingTax ?? cellOf('withholding_tax'),
        ratio: ratio || cellOf('ratio'),
      });
      for (const { field, message } of kindProblems) problem(field, { message, ctx: { error: message } });
    }
    const note = value('note');
    if (note.length > NOTE_MAX_LENGTH) {
      problem('note', { type: 'string_too_long', ctx: { max_length: NOTE_MAX_LENGTH } });
    }
    if (rowProblems.length > 0) {
      problems.push(...rowProblems.sort((a, b) => columnRank(a) - columnRank(b)));
      return;
    }
    const split = ratio ? parseSplitRatio(ratio) : null;
    rows.push({
      row,
      executedAt: executedAt!,
      tradeDate: tradeDateOf(value('date'), executedAt!),
      symbol,
      side: side!,
      quantity: quantity ?? 0,
      price: price ?? 0,
      fees: fees ?? 0,
      ...(amount !== null && { amount }),
      ...(side === 'dividend' && { withholdingTax: withholdingTax ?? 0 }),
      ...(split && { splitTo: split.to, splitFrom: split.from }),
      note: note === '' ? null : note,
    });
  });
  return { rows, symbolCells, problems };
}

/** A row's problems are listed in this order of their columns, whatever the file's order. */
const ISSUE_COLUMN_ORDER = [
  'date',
  'symbol',
  'side',
  'type',
  'quantity',
  'price',
  'fees',
  'amount',
  'withholding_tax',
  'ratio',
  'note',
];

function columnRank(problem: FieldProblem): number {
  return ISSUE_COLUMN_ORDER.indexOf(String(problem.path[1]));
}

/** The unclosed quote is in the last record: it runs to the end of the file. */
function unclosedQuoteProblem(records: string[][], cellIndex: number): FieldProblem {
  const detail = { message: UNCLOSED_QUOTE, ctx: { error: UNCLOSED_QUOTE } };
  const row = records.length - 2;
  if (row < 0) return { path: ['header'], ...detail };
  const column = records[0][cellIndex]?.trim().toLowerCase();
  return { path: [row, column || cellIndex], ...detail };
}

function checkHeader(header: string[]): FieldProblem | null {
  if (header.length > MAX_CSV_COLUMNS) {
    const error = `the header has ${header.length} columns, at most ${MAX_CSV_COLUMNS}`;
    return { path: ['header'], message: error, ctx: { error } };
  }
  const typed = header.includes('type');
  const problems = typed
    ? headerProblems(header, TYPED_REQUIRED_COLUMNS, TYPED_KNOWN_COLUMNS)
    : headerProblems(header, REQUIRED_COLUMNS, KNOWN_COLUMNS);
  if (problems.length === 0) return null;
  const expected = typed
    ? `a header with a type column has date and type, and any of the columns ${TYPED_KNOWN_COLUMNS.slice(2).join(', ')}`
    : `the header must be ${CSV_HEADER} (fees and note optional)`;
  return { path: ['header'], message: `${expected}: ${problems.join('; ')}` };
}

/**
 * The required columns missing from a header, the unknown ones and the repeated ones, as phrases
 * naming at most MAX_NAMED_COLUMNS of each.
 */
function headerProblems(header: string[], required: readonly string[], known: readonly string[]): string[] {
  const present = new Set(header);
  const missing = required.filter((column) => !present.has(column));
  const unknown = header.filter((column) => !known.includes(column));
  const seen = new Set<string>();
  const duplicated = header.filter((column) => seen.has(column) || (seen.add(column), false));
  return [
    missing.length > 0 ? `missing ${namedColumns(missing)}` : null,
    unknown.length > 0 ? `unknown ${namedColumns(unknown)}` : null,
    duplicated.length > 0 ? `repeated ${namedColumns(duplicated)}` : null,
  ].filter((problem): problem is string => problem !== null);
}

function namedColumns(columns: string[]): string {
  const named = columns.slice(0, MAX_NAMED_COLUMNS).join(', ');
  const more = columns.length - MAX_NAMED_COLUMNS;
  return more > 0 ? `${named} and ${more} more` : named;
}

type Report = (detail: Omit<FieldProblem, 'path'>) => void;

function parseDate(raw: string, now: Date, report: Report): Date | null {
  if (raw === '') return missing(report);
  const valid = DATE_ONLY.test(raw) || DATE_TIME.test(raw);
  const date = new Date(DATE_ONLY.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (!valid || Number.isNaN(date.getTime())) {
    report({ type: 'datetime_parsing' });
    return null;
  }
  if (date.getTime() > now.getTime()) {
    report({ message: 'the date must not be in the future' });
    return null;
  }
  if (!isOnOrAfterEarliestTrade(date)) {
    report({ message: `the date must not be before ${EARLIEST_TRADE_DATE}` });
    return null;
  }
  return date;
}

function parseSymbol(raw: string, report: Report): string | null {
  if (raw === '') return missing(report);
  if (!SYMBOL_PATTERN.test(raw)) {
    report({
      message: `String should match pattern '${SYMBOL_PATTERN.source}'`,
      type: 'string_pattern_mismatch',
      ctx: { pattern: SYMBOL_PATTERN.source },
    });
    return null;
  }
  return raw.toUpperCase();
}

function parseSide(raw: string, report: Report): TransactionKind | null {
  if (raw === '') return missing(report);
  const side = raw.toLowerCase();
  if (side === 'buy' || side === 'sell') return side;
  report({ message: "Input should be 'buy' or 'sell'", type: 'enum', ctx: { expected: "'buy' or 'sell'" } });
  return null;
}

function parseKind(raw: string, report: Report): TransactionKind | null {
  const kind = TRANSACTION_KINDS.find((known) => known === raw.toLowerCase());
  if (kind) return kind;
  const expected = `${TRANSACTION_KINDS.slice(0, -1)
    .map((known) => `'${known}'`)
    .join(', ')} or '${TRANSACTION_KINDS[TRANSACTION_KINDS.length - 1]}'`;
  report({ message: `Input should be ${expected}`, type: 'enum', ctx: { expected } });
  return null;
}

function parseAmount(raw: string, rule: AmountRule, report: Report): number | null {
  if (raw === '') return missing(report);
  const value = Number(raw);
  if (!DECIMAL.test(raw) || !Number.isFinite(value)) {
    report({
      message: 'Input should be a valid number, unable to parse string as a number',
      type: 'float_parsing',
    });
    return null;
  }
  if (!rule.zero && !(value > 0)) {
    report({ message: 'Input should be greater than 0', type: 'greater_than', ctx: { gt: 0 } });
    return null;
  }
  if (value < rule.min) {
    report({
      message: `Input should be greater than or equal to ${rule.min}`,
      type: 'greater_than_equal',
      ctx: { ge: rule.min },
    });
    return null;
  }
  if (value > rule.max) {
    report({
      message: `Input should be less than or equal to ${rule.max}`,
      type: 'less_than_equal',
      ctx: { le: rule.max },
    });
    return null;
  }
  return value;
}

function missing(report: Report): null {
  report({ type: 'missing' });
  return null;
}
