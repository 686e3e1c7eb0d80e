// What a brokerage's export becomes before it meets the ledger: entries of the ledger's kinds, and
// every row the service cannot represent, skipped with its reason. Line numbers are the file's own
// (1-based), so the user can find each row in the file they downloaded.
import { TransactionKind } from '../analytics/ledger-replay';

export const BROKER_FORMATS = [
  'schwab',
  'fidelity',
  'vanguard',
  'td_ameritrade',
  'interactive_brokers',
  'robinhood',
  'e_trade',
  'webull',
  'merrill_edge',
  'native',
] as const;
export type BrokerFormat = (typeof BROKER_FORMATS)[number];

/** A stock split as the broker writes it: a ratio, or the shares it added (resolved against the holding). */
export type SplitTerms = { to: number; from: number } | { addedShares: number };

/** One row mapped onto a ledger kind. */
export interface ImportedEntry {
  line: number;
  side: TransactionKind;
  /** The exchange date, YYYY-MM-DD (the trade date where the broker gives one). */
  date: string;
  symbol: string | null;
  quantity: number;
  price: number;
  fees: number;
  amount: number | null;
  withholdingTax: number | null;
  split: SplitTerms | null;
  /** The broker's words for the row (its action), kept as the entry's note. */
  action: string;
  /** The broker's own id of the transaction, when the export has one. */
  brokerId: string | null;
  /** A reinvested dividend and the buy it paid for name each other's line. */
  pairedWith?: number;
  /** The instant, when the file gives one (the service's own layout); otherwise the date at midnight UTC. */
  executedAt?: Date;
}

export interface SkippedRow {
  line: number;
  action: string;
  reason: string;
}

export interface RejectedRow {
  line: number;
  reason: string;
}

/** A row recorded as part of another entry (withholding tax on its dividend). */
export interface CombinedRow {
  line: number;
  action: string;
  /** The line of the entry it is part of. */
  into: number;
}

export interface ParsedExport {
  format: BrokerFormat;
  /** Which of the format's layouts the file is in, e.g. "Activity Statement". */
  layout: string;
  entries: ImportedEntry[];
  skipped: SkippedRow[];
  rejected: RejectedRow[];
  combined: CombinedRow[];
  /** What the user should know about the whole file (e.g. an order log carries no cash). */
  notices: string[];
}

/** A row of the file as the parsers see it: its cells and the line it starts on. */
export interface CsvRow {
  cells: string[];
  line: number;
}

/** Builds the entries and skip reasons of one export, in file order. */
export class ExportBuilder {
  readonly entries: ImportedEntry[] = [];
  readonly skipped: SkippedRow[] = [];
  readonly rejected: RejectedRow[] = [];
  readonly notices: string[] = [];
  readonly combined: CombinedRow[] = [];
  /** Withholding rows, matched to their dividends once every row is read (see finish). */
  private readonly withholdings: ImportedEntry[] = [];
  /** Withholding given back (positive amounts), each cancelling an earlier withholding (see finish). */
  private readonly refunds: ImportedEntry[] = [];

  constructor(
    readonly format: BrokerFormat,
    public layout: string,
  ) {}

  add(
    entry: Omit<ImportedEntry, 'fees' | 'amount' | 'withholdingTax' | 'split' | 'quantity' | 'price'> &
      Partial<ImportedEntry>,
  ): void {
    this.entries.push({
      quantity: 0,
      price: 0,
      fees: 0,
      amount: null,
      withholdingTax: null,
      split: null,
      ...entry,
    });
  }

  trade(
    row: { line: number; date: string; action: string; brokerId?: string | null },
    side: 'buy' | 'sell',
    symbol: string,
    quantity: number,
    price: number,
    fees: number,
  ): void {
    this.add({
      ...row,
      brokerId: row.brokerId ?? null,
      side,
      symbol,
      quantity: Math.abs(quantity),
      price,
      fees: Math.abs(fees),
    });
  }

  /** A cash kind, by the sign of the broker's amount where the kind depends on it. */
  cash(
    row: { line: number; date: string; action: string; brokerId?: string | null },
    side: 'deposit' | 'withdrawal' | 'interest' | 'fee' | 'dividend',
    amount: number,
    symbol: string | null = null,
  ): void {
    if (amount === 0) return this.skip(row, 'the amount is 0: nothing to record');
    if (side === 'interest' && amount < 0)
      return this.add({ ...row, brokerId: row.brokerId ?? null, side: 'fee', symbol: null, amount: -amount });
    if (side === 'fee' && amount > 0)
      return this.skip(row, 'a refunded fee (positive amount): the ledger has no negative fee');
    if (side === 'dividend' && !symbol) return this.skip(row, 'a dividend without a symbol');
    // A dividend keeps its sign until finish() pairs the broker's reversals with what they reverse.
    this.add({
      ...row,
      brokerId: row.brokerId ?? null,
      side,
      symbol,
      amount: side === 'dividend' ? amount : Math.abs(amount),
    });
  }

  /** A deposit for money in, a withdrawal for money out. */
  transfer(
    row: { line: number; date: string; action: string; brokerId?: string | null },
    amount: number,
  ): void {
    this.cash(row, amount >= 0 ? 'deposit' : 'withdrawal', amount);
  }

  /**
   * Shares moved into or out of the account (a journal, an ACATS or internal transfer), `direction`
   * as the file tells it. Out: a transfer_out, whose cost basis and lots leave by the ledger's own
   * rule (the oldest first), so the file need not give them. In: the ledger needs the shares' cost
   * basis and acquisition date, which no brokerage writes on the row; the row is skipped with how to
   * record it. A file that does not tell the direction is skipped the same way.
   */
  shareTransfer(
    row: { line: number; date: string; action: string; brokerId?: string | null },
    direction: 'in' | 'out' | 'unknown',
    symbol: string,
    quantity: number,
  ): void {
    const shares = Math.abs(quantity);
    if (shares === 0) return this.skip(row, 'a share transfer without a quantity: nothing to record');
    if (direction === 'out')
      return this.add({
        ...row,
        brokerId: row.brokerId ?? null,
        side: 'transfer_out',
        symbol,
        quantity: shares,
      });
    const moved = `${shares} ${symbol} on ${row.date}`;
    const transferIn = `a transfer_in of ${moved}, amount = their cost basis and acquired_on = the date they were first bought (one entry per lot)`;
    const what =
      direction === 'in'
        ? `shares moved in without their cost basis, which the file does not give: record them with POST /api/v1/portfolio/transactions as ${transferIn}`
        : `shares moved in or out, and the file gives neither the direction nor their cost basis: record them with POST /api/v1/portfolio/transactions as a transfer_out of ${moved}, or as ${transferIn}`;
    this.skip(
      row,
      `${what}, then import the file again: the rows it recorded already are not recorded twice`,
    );
  }

  /**
   * Tax withheld: subtracted from the dividend of the same symbol within a week before or on its
   * day when there is one (the ledger's withholding_tax), else recorded as a fee on the position.
   */
  withholding(
    row: { line: number; date: string; action: string; brokerId?: string | null },
    amount: number,
    symbol: string | null,
  ): void {
    if (amount === 0) return this.skip(row, 'the amount is 0: nothing to record');
    (amount > 0 ? this.refunds : this.withholdings).push({
      line: row.line,
      date: row.date,
      action: row.action,
      brokerId: row.brokerId ?? null,
      side: 'fee',
      symbol,
      quantity: 0,
      price: 0,
      fees: 0,
      amount: Math.abs(amount),
      withholdingTax: null,
      split: null,
    });
  }

  skip(row: { line: number; action: string }, reason: string): void {
    this.skipped.push({ line: row.line, action: row.action, reason });
  }

  reject(line: number, reason: string): void {
    this.rejected.push({ line, reason });
  }

  finish(): ParsedExport {
    this.cancelReversedDividends();
    this.cancelRefundedWithholdings();
    this.attachWithholdings();
    this.pairReinvestments();
    const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
    return {
      format: this.format,
      layout: this.layout,
      entries: this.entries.sort(byLine),
      skipped: this.skipped.sort(byLine),
      rejected: this.rejected.sort(byLine),
      combined: this.combined.sort(byLine),
      notices: this.notices,
    };
  }

  /**
   * A negative dividend is the broker reversing one: it cancels the earlier dividend of the same
   * symbol and amount (both skipped, each naming the other); one with nothing to cancel is skipped.
   */
  private cancelReversedDividends(): void {
    const reversals = this.entries.filter((entry) => entry.side === 'dividend' && entry.amount! < 0);
    for (const reversal of reversals) {
      const reversed = this.entries.find(
        (entry) =>
          entry.side === 'dividend' &&
          entry.symbol === reversal.symbol &&
          entry.amount === -reversal.amount! &&
          entry.date <= reversal.date,
      );
      this.remove(reversal);
      if (reversed) {
        this.remove(reversed);
        this.skip(reversed, `reversed by the broker on line ${reversal.line}`);
        this.skip(reversal, `reverses the dividend on line ${reversed.line}`);
      } else {
        this.skip(reversal, 'a dividend reversal with no dividend of that amount earlier in the file');
      }
    }
  }

  /** A refund cancels the earlier withholding of the same symbol and amount; one without is skipped. */
  private cancelRefundedWithholdings(): void {
    for (const refund of this.refunds) {
      const refunded = this.withholdings.find(
        (tax) => tax.symbol === refund.symbol && tax.amount === refund.amount && tax.date <= refund.date,
      );
      if (refunded) {
        this.withholdings.splice(this.withholdings.indexOf(refunded), 1);
        this.skip(refunded, `refunded by the broker on line ${refund.line}`);
        this.skip(refund, `refunds the withholding on line ${refunded.line}`);
      } else {
        this.skip(
          refund,
          'a withholding-tax refund with no withholding of that amount earlier in the file: the ledger has no negative tax',
        );
      }
    }
  }

  private attachWithholdings(): void {
    for (const tax of this.withholdings) {
      const dividend = this.entries.find(
        (entry) =>
          entry.side === 'dividend' &&
          entry.symbol === tax.symbol &&
          entry.date <= tax.date &&
          daysBetween(entry.date, tax.date) <= 7 &&
          (entry.withholdingTax ?? 0) + tax.amount! <= entry.amount! + 1e-9,
      );
      if (dividend) {
        dividend.withholdingTax = roundCents((dividend.withholdingTax ?? 0) + tax.amount!);
        this.combined.push({ line: tax.line, action: tax.action, into: dividend.line });
      } else {
        this.entries.push({ ...tax, action: `${tax.action} (withholding tax)` });
      }
    }
  }

  /**
   * A dividend and the buy of the same symbol it paid for (cost equal to the dividend, or to the
   * dividend net of its withholding, give or take the broker's rounding), on its day or up to
   * REINVEST_DAYS after.
   */
  private pairReinvestments(): void {
    const buysBySymbol = new Map<string, ImportedEntry[]>();
    for (const entry of this.entries) {
      if (entry.side !== 'buy' || entry.symbol === null) continue;
      const buys = buysBySymbol.get(entry.symbol) ?? [];
      buys.push(entry);
      buysBySymbol.set(entry.symbol, buys);
    }
    for (const dividend of this.entries) {
      if (dividend.side !== 'dividend' || dividend.symbol === null) continue;
      const net = dividend.amount! - (dividend.withholdingTax ?? 0);
      const buy = buysBySymbol.get(dividend.symbol)?.find((candidate) => {
        if (candidate.pairedWith !== undefined) return false;
        const cost = candidate.quantity * candidate.price + candidate.fees;
        // A cent, and half a cent per share for a price the broker rounded.
        const slack = 0.01 + 0.005 * candidate.quantity;
        if (Math.abs(cost - dividend.amount!) > slack && Math.abs(cost - net) > slack) return false;
        const days = daysBetween(dividend.date, candidate.date);
        return days >= 0 && days <= REINVEST_DAYS;
      });
      if (buy) {
        buy.pairedWith = dividend.line;
        dividend.pairedWith = buy.line;
      }
    }
  }

  private remove(entry: ImportedEntry): void {
    this.entries.splice(this.entries.indexOf(entry), 1);
  }
}

/** How many days after its dividend a broker may book the reinvesting buy. */
const REINVEST_DAYS = 5;

function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}

function roundCents(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}
