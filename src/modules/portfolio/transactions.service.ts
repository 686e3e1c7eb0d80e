import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/time/clock';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { FieldPath, FieldProblem, FieldProblems } from '../../common/errors/field-problems';
import { portfolioConfig } from '../../config/portfolio.config';
import { MarketService, normalizeSymbol } from '../market';
import { CreateTransactionDto, LotSelectionDto, UpdateTransactionDto } from './dto/create-transaction.dto';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import { parseTransactionsCsv } from './import/transactions-csv.parser';
import { HoldingsService } from './holdings.service';
import {
  LedgerService,
  LotSelectionRejectedError,
  NewLotSelection,
  OversellRejectedError,
  provisionalId,
  rejectedLotDetail,
  UnheldPositionRejectedError,
} from './ledger.service';
import { LedgerTransaction, NewLedgerTransaction, withRealizedPnlOf } from './ledger-transaction';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import { PortfolioSettingsService } from './portfolio-settings.service';
import {
  ListingBound,
  PortfolioTransactionsRepository,
  StoredTransaction,
  TransactionRevision,
} from './portfolio-transactions.repository';
import { nullable, quantity as roundQuantity } from './portfolio-rounding';
import {
  acceptsField,
  formatSplitRatio,
  KIND_FIELDS,
  kindFieldProblems,
  parseSplitRatio,
} from './transaction-fields';
import { unreachable } from '../../common/types/unreachable';
import { LedgerEntry, QUANTITY_EPSILON, replayLedger, TransactionKind } from './analytics/ledger-replay';
import { CostBasis, lotsByMethod } from './analytics/cost-basis';
import { CreateTransferDto } from './dto/transfer.dto';
import { tradeDateOf } from './trade-date';
import { EARLIEST_TRADE_DATE, isOnOrAfterEarliestTrade } from './ledger-limits';

/** A page of the ledger, newest first. */
export interface TransactionPage {
  transactions: StoredTransaction[];
  /** Transactions matching the filters, all pages together. */
  total: number;
  skip: number;
  limit: number;
}

/** The trade ledger: recording, listing, deleting and importing transactions, one user at a time. */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly transactions: PortfolioTransactionsRepository,
    private readonly market: MarketService,
    private readonly clock: Clock,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
    private readonly settings: PortfolioSettingsService,
    private readonly holdings: HoldingsService,
    private readonly accounts: PortfolioAccountsRepository,
  ) {}

  /**
   * 404 for an unknown symbol; 422 for a field the kind does not accept (KIND_FIELDS), a withholding
   * tax above the dividend or a bad split ratio; 400 when a sell exceeds the quantity held at its
   * date (or makes a later sell do so), or a dividend or split has no position; 422 for lots that are not this sell's to name, 409 when the trade would
   * leave a stored sell's named lot without its shares. The answer's realized P&L is by the
   * user's cost-basis method.
   */
  async record(userId: number, body: CreateTransactionDto): Promise<LedgerTransaction> {
    const executedAt = this.checkedExecutedAt(body.executed_at);
    throwFieldProblems(body.side, body);
    const lots = body.lots ? validLotSelections(body) : [];
    const symbol = body.symbol === undefined ? null : (await this.market.getQuote(body.symbol)).symbol;
    const record = this.newRecord(userId, body, symbol, {
      executedAt,
      tradeDate: tradeDateOf(body.executed_at, executedAt),
    });
    return this.ledger.change(userId, async (ledger) => {
      try {
        const accountId = await ledger.accountFor(body.account_id);
        const recorded = await ledger.append([{ ...record, accountId }], lots);
        const [shown] = await ledger.withRealizedPnlByMethod(recorded);
        return shown;
      } catch (error) {
        if (error instanceof LotSelectionRejectedError) throw rejectedLots(error, body.lots ?? []);
        throw error;
      }
    });
  }

  /**
   * Edits a transaction of any kind under the rules of a new entry (see `record`, and
   * LedgerChange.edit): fields left out keep their stored value while the kind stays; a new `side`
   * starts from that kind's fields alone. Realized P&L is re-derived; the replaced values are kept in
   * the transaction's history. 404 for another user's or a missing id.
   */
  async edit(userId: number, id: number, body: UpdateTransactionDto): Promise<LedgerTransaction> {
    const executedAt = body.executed_at === undefined ? undefined : this.checkedExecutedAt(body.executed_at);
    // Resolved before the lock, like a new entry's: a market call never holds the ledger.
    const symbol = body.symbol ? (await this.market.getQuote(body.symbol)).symbol : undefined;
    return this.ledger.change(userId, async (ledger) => {
      const stored = (await ledger.entries()).find((entry) => entry.id === id);
      if (!stored) throw new NotFoundError(ErrorDetail.transactionNotFound);
      const merged = mergedEntry(stored, body);
      throwFieldProblems(merged.side, merged, true);
      const lots = body.lots ? validLotSelections(merged) : undefined;
      const record = this.newRecord(
        userId,
        merged,
        symbol ?? (merged.symbol === undefined ? null : stored.symbol),
        executedAt
          ? { executedAt, tradeDate: tradeDateOf(body.executed_at!, executedAt) }
          : { executedAt: stored.executedAt, tradeDate: stored.tradeDate },
      );
      record.createdAt = stored.createdAt;
      const accountId =
        body.account_id === undefined ? stored.accountId : await ledger.accountFor(body.account_id);
      try {
        const edited = await ledger.edit(id, { ...record, accountId }, lots, this.clock.now());
        const [shown] = await ledger.withRealizedPnlByMethod([edited]);
        return shown;
      } catch (error) {
        if (error instanceof LotSelectionRejectedError) throw rejectedLots(error, body.lots ?? []);
        throw error;
      }
    });
  }

  /**
   * Moves cash (`amount`) or shares (`symbol`, `quantity`) from one of the user's accounts to another
   * as one pair, recorded together or not at all: a transfer_out of the sending account and, in the
   * receiving one, a transfer_in of the cash, or one per lot the shares leave (oldest first; the
   * lots the sell selections leave under `specific`), each keeping its acquisition date and its cost
   * basis by the user's method at that time (the average cost per share under `average`). Realizes
   * nothing. 404 for an account not the user's or an unknown symbol; 400 for more shares than the
   * sending account holds then (or, with strict cash, more cash); 422 for bad fields.
   */
  async transfer(userId: number, body: CreateTransferDto): Promise<LedgerTransaction[]> {
    const executedAt = this.checkedExecutedAt(body.executed_at);
    if (body.from_account_id === body.to_account_id)
      throw FieldProblems.invalid(['to_account_id'], ErrorDetail.transferToSameAccount);
    const shares = body.symbol !== undefined;
    throwFieldProblems('transfer_out', { symbol: body.symbol, quantity: body.quantity, amount: body.amount });
    const symbol = shares ? (await this.market.getQuote(body.symbol!)).symbol : null;
    const tradeDate = tradeDateOf(body.executed_at, executedAt);
    // Read before the lock, as every change reads the settings (see LedgerService.change).
    const costBasis = await this.settings.costBasis(userId);
    const createdAt = this.clock.now();
    const leg = {
      userId,
      symbol,
      quantity: 0,
      price: 0,
      fees: 0,
      executedAt,
      tradeDate,
      note: body.note ?? null,
      createdAt,
    };
    return this.ledger.change(userId, async (ledger) => {
      const from = await ledger.accountFor(body.from_account_id);
      const to = await ledger.accountFor(body.to_account_id);
      if (!shares) {
        const amount = roundQuantity(body.amount!);
        const sent = { ...leg, accountId: from, side: 'transfer_out' as const, amount };
        const received = {
          ...leg,
          accountId: to,
          side: 'transfer_in' as const,
          amount,
          transferOf: provisionalId(0),
        };
        return ledger.append([sent, received]);
      }
      const quantity = roundQuantity(body.quantity!);
      const before = (await ledger.entries()).filter(
        (entry) => entry.accountId === from && entry.executedAt.getTime() <= executedAt.getTime(),
      );
      const received = lotsLeaving(before, costBasis, symbol!, quantity).map((portion) => ({
        ...leg,
        accountId: to,
        side: 'transfer_in' as const,
        quantity: roundQuantity(portion.quantity),
        amount: roundQuantity(portion.cost),
        acquiredOn: portion.acquiredOn,
        transferOf: provisionalId(0),
      }));
      const sent = { ...leg, accountId: from, side: 'transfer_out' as const, quantity };
      return ledger.withRealizedPnlByMethod(await ledger.append([sent, ...received]));
    });
  }

  /** The values each edit of the user's transaction replaced, oldest first; 404 for another user's. */
  async revisions(userId: number, id: number): Promise<TransactionRevision[]> {
    const { entries } = await this.transactions.ledger(userId);
    const revisions = await this.transactions.revisions(userId, id);
    if (revisions.length === 0 && !entries.some((entry) => entry.id === id))
      throw new NotFoundError(ErrorDetail.transactionNotFound);
    return revisions;
  }

  /** 422 for a date in the future or before EARLIEST_TRADE_DATE. */
  private checkedExecutedAt(iso: string): Date {
    const executedAt = validInstant(parseInstant(iso), ['executed_at']);
    if (executedAt.getTime() > this.clock.now().getTime()) {
      throw FieldProblems.invalid(['executed_at'], 'executed_at must not be in the future');
    }
    if (!isOnOrAfterEarliestTrade(executedAt)) {
      throw FieldProblems.invalid(['executed_at'], `executed_at must not be before ${EARLIEST_TRADE_DATE}`);
    }
    return executedAt;
  }

  /** The ledger record of a request body whose fields are valid for its kind. */
  private newRecord(
    userId: number,
    body: EntryFields,
    symbol: string | null,
    when: { executedAt: Date; tradeDate: string },
  ): NewLedgerTransaction {
    const split = body.ratio === undefined ? null : parseSplitRatio(body.ratio);
    if (body.acquired_on !== undefined && body.acquired_on > when.tradeDate)
      throw FieldProblems.invalid(['acquired_on'], 'acquired_on must not be after executed_at');
    return {
      userId,
      symbol,
      side: body.side,
      quantity: roundQuantity(body.quantity ?? 0),
      price: roundQuantity(body.price ?? 0),
      fees: roundQuantity(body.fees ?? 0),
      amount: body.amount === undefined ? null : roundQuantity(body.amount),
      withholdingTax: body.side === 'dividend' ? roundQuantity(body.withholding_tax ?? 0) : null,
      splitTo: split?.to ?? null,
      splitFrom: split?.from ?? null,
      executedAt: when.executedAt,
      tradeDate: when.tradeDate,
      acquiredOn:
        body.side === 'transfer_in' && body.symbol !== undefined
          ? (body.acquired_on ?? when.tradeDate)
          : null,
      note: body.note ?? null,
      createdAt: this.clock.now(),
    };
  }

  /** Each sell's realized P&L by the user's cost-basis method. */
  async list(userId: number, query: ListTransactionsQuery): Promise<TransactionPage> {
    if (query.account_id !== undefined && !(await this.accounts.find(userId, query.account_id)))
      throw new NotFoundError(ErrorDetail.accountNotFound);
    const [page, total] = await this.transactions.list(userId, {
      accountId: query.account_id,
      symbol: query.symbol ? normalizeSymbol(query.symbol) : undefined,
      from: query.from === undefined ? undefined : listingBound(query.from, ['from']),
      to: query.to === undefined ? undefined : listingBound(query.to, ['to']),
      skip: query.skip,
      limit: query.limit,
    });
    const costBasis = await this.settings.costBasis(userId);
    let transactions = page;
    if (costBasis.method !== 'average') {
      const stored = await this.transactions.ledger(userId);
      const { realizedPnlBySell } = this.holdings.replayOfStored(userId, stored, costBasis);
      transactions = page.map((transaction) => withRealizedPnlOf(transaction, realizedPnlBySell));
    }
    return { transactions, total, skip: query.skip, limit: query.limit };
  }

  /**
   * 404 for another user's or a missing id; 400 when a later sell would exceed the quantity held
   * without it; 409 when a stored sell names it as a lot (or would lose its named lot's shares).
   */
  remove(userId: number, id: number): Promise<void> {
    return this.ledger.change(userId, (ledger) => ledger.remove(id));
  }

  /**
   * All rows recorded in one database transaction, or none: a 422 lists every bad cell
   * (at `[row, column]`, row 0 being the first line after the header).
   */
  async importCsv(userId: number, csv: string, accountId?: number): Promise<LedgerTransaction[]> {
    const parsed = parseTransactionsCsv(csv, this.clock.now(), this.config.importMaxRows);
    const problems = [...parsed.problems];
    const canonical = await this.canonicalSymbols([
      ...new Set(parsed.symbolCells.map((cell) => cell.symbol)),
    ]);
    for (const cell of parsed.symbolCells) {
      if (!canonical.has(cell.symbol))
        problems.push(cellProblem(cell.row, 'symbol', ErrorDetail.stockNotFound(cell.symbol)));
    }
    if (problems.length > 0) throw new FieldProblems(byRow(problems));

    const createdAt = this.clock.now();
    const records: NewLedgerTransaction[] = parsed.rows.map((row) => ({
      userId,
      symbol: row.symbol === null ? null : canonical.get(row.symbol)!,
      side: row.side,
      quantity: roundQuantity(row.quantity),
      price: roundQuantity(row.price),
      fees: roundQuantity(row.fees),
      amount: nullable(row.amount ?? null, roundQuantity),
      withholdingTax: nullable(row.withholdingTax ?? null, roundQuantity),
      splitTo: row.splitTo ?? null,
      splitFrom: row.splitFrom ?? null,
      executedAt: row.executedAt,
      tradeDate: row.tradeDate,
      note: row.note,
      createdAt,
    }));
    return this.ledger.change(userId, async (ledger) => {
      try {
        const target = await ledger.accountFor(accountId);
        const placed = records.map((record) => ({ ...record, accountId: target }));
        return await ledger.withRealizedPnlByMethod(await ledger.append(placed));
      } catch (error) {
        if (error instanceof OversellRejectedError) throw oversoldRows(error, parsed.rows);
        if (error instanceof UnheldPositionRejectedError && 'appendedIndex' in error.at)
          throw new FieldProblems([
            cellProblem(parsed.rows[error.at.appendedIndex].row, 'symbol', error.detail),
          ]);
        throw error;
      }
    });
  }

  /** Upper-case symbol → the provider's spelling, for the symbols the provider knows (one batched call). */
  private async canonicalSymbols(symbols: string[]): Promise<Map<string, string>> {
    const quotes = await this.market.getQuotes(symbols);
    const result = new Map<string, string>();
    for (const symbol of symbols) {
      const quote = quotes.get(normalizeSymbol(symbol));
      if (quote) result.set(symbol, quote.symbol);
    }
    return result;
  }
}

/**
 * The shares of `symbol` that leave an account whose entries up to the transfer are `before`: the
 * lots by the method (oldest first), as far as `quantity` reaches, each with its cost basis: the
 * lot's own, or under average cost the position's average per share. Fewer than `quantity` when
 * the account holds fewer (the transfer is then refused as an oversell).
 */
function lotsLeaving(
  before: readonly LedgerEntry[],
  costBasis: CostBasis,
  symbol: string,
  quantity: number,
): { quantity: number; cost: number; acquiredOn: string }[] {
  const average = replayLedger(before).positions.get(symbol);
  const averagePerShare = average && average.quantity > 0 ? average.costBasis / average.quantity : 0;
  const portions: { quantity: number; cost: number; acquiredOn: string }[] = [];
  let remaining = quantity;
  for (const lot of lotsByMethod(before, costBasis).open) {
    if (lot.symbol !== symbol || remaining <= QUANTITY_EPSILON) continue;
    const moved = Math.min(lot.quantity, remaining);
    const perShare = costBasis.method === 'average' ? averagePerShare : lot.costPerShare;
    portions.push({ quantity: moved, cost: moved * perShare, acquiredOn: lot.acquiredOn });
    remaining -= moved;
  }
  return portions;
}

/** The kind-dependent fields of an entry, as a request names them. */
type EntryFields = Pick<
  CreateTransactionDto,
  | 'side'
  | 'symbol'
  | 'quantity'
  | 'price'
  | 'fees'
  | 'amount'
  | 'withholding_tax'
  | 'ratio'
  | 'acquired_on'
  | 'note'
  | 'lots'
>;

/** 422 at each kind-dependent field the kind does not take (and, with `required`, each it lacks). */
function throwFieldProblems(
  side: TransactionKind,
  body: Omit<EntryFields, 'side' | 'note' | 'lots'>,
  required = false,
) {
  const fields = {
    symbol: body.symbol,
    quantity: body.quantity,
    price: body.price,
    fees: body.fees,
    amount: body.amount,
    withholding_tax: body.withholding_tax,
    ratio: body.ratio,
    acquired_on: body.acquired_on,
  };
  const problems: FieldProblem[] = kindFieldProblems(side, fields).map(({ field, message }) => ({
    path: [field],
    message,
  }));
  if (required)
    for (const field of KIND_FIELDS[side].required)
      if (fields[field] === undefined) problems.push({ path: [field], type: 'missing' });
  if (problems.length > 0) throw new FieldProblems(problems);
}

/**
 * The entry an edit asks for, in request terms: the stored entry's fields while the kind stays,
 * overlaid by the body's; a new kind keeps only the symbol (when it takes one) besides the body's
 * fields. Null leaves a field as stored.
 */
function mergedEntry(stored: StoredTransaction, body: UpdateTransactionDto): EntryFields {
  const side = body.side ?? stored.side;
  const kept: Omit<EntryFields, 'side' | 'note' | 'lots'> =
    side === stored.side
      ? requestFieldsOf(stored)
      : { symbol: acceptsField(side, 'symbol') ? (stored.symbol ?? undefined) : undefined };
  return {
    side,
    symbol: body.symbol ?? kept.symbol,
    quantity: body.quantity ?? kept.quantity,
    price: body.price ?? kept.price,
    fees: body.fees ?? kept.fees,
    amount: body.amount ?? kept.amount,
    withholding_tax: body.withholding_tax ?? kept.withholding_tax,
    ratio: body.ratio ?? kept.ratio,
    acquired_on: body.acquired_on ?? kept.acquired_on,
    note: body.note === undefined ? (stored.note ?? undefined) : body.note,
    lots: body.lots,
  };
}

/** A stored entry's kind-dependent fields as a request would give them. */
function requestFieldsOf(entry: StoredTransaction): Omit<EntryFields, 'side' | 'note' | 'lots'> {
  switch (entry.side) {
    case 'buy':
    case 'sell':
      return { symbol: entry.symbol!, quantity: entry.quantity, price: entry.price, fees: entry.fees };
    case 'dividend':
      return { symbol: entry.symbol!, amount: entry.amount!, withholding_tax: entry.withholdingTax ?? 0 };
    case 'split':
      return { symbol: entry.symbol!, ratio: formatSplitRatio(entry.splitTo!, entry.splitFrom!) };
    case 'fee':
      return { symbol: entry.symbol ?? undefined, amount: entry.amount! };
    case 'deposit':
    case 'withdrawal':
    case 'interest':
      return { amount: entry.amount! };
    case 'transfer_in':
      return entry.symbol === null
        ? { amount: entry.amount! }
        : {
            symbol: entry.symbol,
            quantity: entry.quantity,
            amount: entry.amount!,
            acquired_on: entry.acquiredOn ?? undefined,
          };
    case 'transfer_out':
      return entry.symbol === null
        ? { amount: entry.amount! }
        : { symbol: entry.symbol, quantity: entry.quantity };
    default:
      return unreachable(entry.side);
  }
}

/**
 * The lots named in the body, once each and adding up to the quantity sold (422 otherwise); whether
 * each is open enough at the sell's time is for the ledger to say.
 */
function validLotSelections(body: EntryFields): NewLotSelection[] {
  const lots = body.lots!;
  if (body.side !== 'sell') throw FieldProblems.invalid(['lots'], ErrorDetail.lotsOnlyOnSells);
  const seen = new Set<number>();
  lots.forEach((lot, index) => {
    if (seen.has(lot.lot_id))
      throw FieldProblems.invalid(['lots', index, 'lot_id'], ErrorDetail.lotNamedTwice(lot.lot_id));
    seen.add(lot.lot_id);
  });
  const sold = roundQuantity(body.quantity!);
  const named = lots.reduce((sum, lot) => sum + roundQuantity(lot.quantity), 0);
  if (Math.abs(named - sold) > QUANTITY_EPSILON)
    throw FieldProblems.invalid(['lots'], ErrorDetail.lotsMustSumToQuantity(sold));
  return lots.map((lot) => ({ appendedIndex: 0, lotId: lot.lot_id, quantity: roundQuantity(lot.quantity) }));
}

/** Each lot the ledger cannot honour, at its place in the body. */
function rejectedLots(error: LotSelectionRejectedError, lots: readonly LotSelectionDto[]): FieldProblems {
  return new FieldProblems(
    error.rejected.map((rejected) => {
      const index = lots.findIndex((lot) => lot.lot_id === rejected.lotId);
      const message = rejectedLotDetail(rejected);
      const field = rejected.reason === 'closed' ? 'lot_id' : 'quantity';
      return { path: ['lots', index, field], message, ctx: { error: message } };
    }),
  );
}

/** Each oversold sell at its row, or, for a sell already stored, at the file as a whole. */
function oversoldRows(error: OversellRejectedError, rows: readonly { row: number }[]): FieldProblems {
  return new FieldProblems(
    error.sells.map((sell) =>
      'appendedIndex' in sell
        ? cellProblem(
            rows[sell.appendedIndex].row,
            'quantity',
            ErrorDetail.insufficientQuantityToSell(sell.symbol),
          )
        : {
            path: [],
            message: `the rows would leave the recorded sell ${sell.storedId} of ${sell.symbol} without enough shares`,
          },
    ),
  );
}

function cellProblem(row: number, column: string, message: string): FieldProblem {
  return { path: [row, column], message, ctx: { error: message } };
}

/** The file's problems in the order of its rows; those of the file as a whole first. */
function byRow(problems: FieldProblem[]): FieldProblem[] {
  const rowOf = (problem: FieldProblem) => (typeof problem.path[0] === 'number' ? problem.path[0] : -1);
  return [...problems].sort((a, b) => rowOf(a) - rowOf(b));
}

/** An ISO date is midnight UTC of that day; a date-time without a zone is taken as UTC. */
export function parseInstant(iso: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return new Date(`${iso}T00:00:00Z`);
  return new Date(/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso) ? iso : `${iso}Z`);
}

/** ISO 8601 also allows week and ordinal dates (2025-W01, 2025-006), which Date cannot read. */
function validInstant(instant: Date, path: FieldPath): Date {
  if (!Number.isNaN(instant.getTime())) return instant;
  throw new FieldProblems([{ path, type: 'datetime_parsing' }]);
}

/**
 * A date bound of a listing compares with the exchange (New York) dates of the entries, as every
 * other route dates them; a date-time bound with their instants.
 */
function listingBound(iso: string, path: FieldPath): ListingBound {
  const instant = validInstant(parseInstant(iso), path);
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? { date: iso } : { instant };
}
