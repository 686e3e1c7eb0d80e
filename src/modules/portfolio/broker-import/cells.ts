// Reading brokers' cells: money with `$`, thousands separators, `(1.00)` or `-$1.00` negatives and
// `--` for empty; dates in the half-dozen ways brokers write them; headers found by name.
import { CsvRow } from './broker-export';

/** Thrown for a cell a row needs but cannot be read; the row is rejected with this message. */
export class CellError extends Error {}

const EMPTY_MARKS = new Set(['', '-', '--', 'n/a', 'N/A']);

/** The number in a money or quantity cell, null when the cell is empty; CellError when it is not a number. */
export function money(raw: string | undefined, column = 'value'): number | null {
  if (raw === undefined) return null;
  let text = raw.trim();
  if (EMPTY_MARKS.has(text)) return null;
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(/[$,\s]/g, '');
  if (text.startsWith('-')) {
    negative = !negative;
    text = text.slice(1);
  } else if (text.startsWith('+')) text = text.slice(1);
  if (!/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text))
    throw new CellError(`${column} "${raw.trim()}" is not a number`);
  const value = Number(text);
  return negative ? -value : value;
}

/** A number cell that must be filled. */
export function requiredMoney(raw: string | undefined, column: string): number {
  const value = money(raw, column);
  if (value === null) throw new CellError(`${column} is empty`);
  return value;
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * The YYYY-MM-DD date of a broker's date cell: M/D/YYYY, MM/DD/YY (20YY), YYYY-MM-DD, YYYYMMDD, each
 * possibly followed by a time (`2023-04-03, 09:58:53`, `20230403;095853`, `06/26/2025 02:38:22 PM EDT`).
 * Schwab's "MM/DD/YYYY as of MM/DD/YYYY" is dated by its second date, the trade's.
 */
export function brokerDate(raw: string | undefined, column = 'date'): string {
  const text = (raw ?? '').trim();
  const asOf = text.split(/\s+as of\s+/i);
  const datePart = asOf[asOf.length - 1].split(/[\s,;T]+/)[0] ?? '';
  let year: number;
  let month: number;
  let day: number;
  let match = US_DATE.exec(datePart);
  if (match) {
    month = Number(match[1]);
    day = Number(match[2]);
    year = match[3].length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  } else if ((match = ISO_DATE.exec(datePart) ?? COMPACT_DATE.exec(datePart))) {
    year = Number(match[1]);
    month = Number(match[2]);
    day = Number(match[3]);
  } else {
    throw new CellError(text === '' ? `${column} is empty` : `${column} "${text}" is not a date`);
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    throw new CellError(`${column} "${text}" is not a date`);
  return date.toISOString().slice(0, 10);
}

/** Whether a cell reads as a date (footers and disclaimers do not). */
export function isDate(raw: string | undefined): boolean {
  try {
    brokerDate(raw);
    return true;
  } catch {
    return false;
  }
}

/** A header name as compared: trimmed, lower case, single spaces. */
export function columnKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Reads a row's cells by column name, for one header. */
export class Columns {
  private readonly index = new Map<string, number>();

  constructor(readonly header: string[]) {
    header.forEach((name, position) => {
      const key = columnKey(name);
      if (key !== '' && !this.index.has(key)) this.index.set(key, position);
    });
  }

  has(name: string): boolean {
    return this.index.has(columnKey(name));
  }

  /** The first of `names` the header has. */
  pick(...names: string[]): string | undefined {
    return names.find((name) => this.has(name));
  }

  /** The trimmed cell under the first of `names` the header has, '' when none. */
  get(row: CsvRow, ...names: string[]): string {
    for (const name of names) {
      const position = this.index.get(columnKey(name));
      if (position !== undefined) return (row.cells[position] ?? '').trim();
    }
    return '';
  }
}

/** The first row (from `from`) that has every one of `names` among its cells, or -1. */
export function findHeader(rows: readonly CsvRow[], names: readonly string[], from = 0, within = 40): number {
  const wanted = names.map(columnKey);
  for (let index = from; index < Math.min(rows.length, from + within); index += 1) {
    const cells = new Set(rows[index].cells.map(columnKey));
    if (wanted.every((name) => cells.has(name))) return index;
  }
  return -1;
}

/** A row with nothing in it but separators and spaces. */
export function isBlank(row: CsvRow): boolean {
  return row.cells.every((cell) => cell.trim() === '');
}

/** A ticker as the ledger takes it: letters first, then letters, digits, dots and dashes. */
export function tickerOf(raw: string): string | null {
  const symbol = raw.trim().toUpperCase();
  return /^[A-Z][A-Z0-9.-]{0,15}$/.test(symbol) ? symbol : null;
}
