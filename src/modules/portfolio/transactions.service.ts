import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/time/clock';
import { ErrorDetail } from '../../common/errors/error-details';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { ValidationIssue } from '../../common/validation/validation-issue';
import { portfolioConfig } from '../../config/portfolio.config';
import { IdempotentRequest } from '../idempotency';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { normalizeSymbol } from '../market/market-symbols';
import { MarketService } from '../market/market.service';
import { findOversell, findOversells } from './analytics/ledger-replay';
import { CreateTransactionDto } from './dto/create-transaction.dto';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import {
  TransactionImportResponse,
  TransactionListResponse,
  TransactionResponse,
} from './dto/transaction.response';
import { PortfolioTransactionEntity } from './entities/portfolio-transaction.entity';
import { parseTransactionsCsv } from './import/transactions-csv.parser';
import {
  LockedLedger,
  NewTransactionRecord,
  PortfolioTransactionsRepository,
} from './portfolio-transactions.repository';
import { toTransactionResponse } from './portfolio.mapper';
import { quantity as roundQuantity } from './portfolio-rounding';

/** Ids for entries not yet stored: after every stored id, in the order given. */
const PROVISIONAL_ID_BASE = Number.MAX_SAFE_INTEGER - 1_000_000;

/** The trade ledger: recording, listing, deleting and importing transactions, one user at a time. */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly transactions: PortfolioTransactionsRepository,
    private readonly market: MarketService,
    private readonly clock: Clock,
    private readonly idempotency: IdempotencyService,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
  ) {}

  /**
   * 404 for an unknown symbol, 400 when a sell exceeds the quantity held at its date (or makes a
   * later sell do so). With an idempotent request, a retry gets the first answer again.
   */
  async record(
    userId: number,
    body: CreateTransactionDto,
    request?: IdempotentRequest,
  ): Promise<TransactionResponse> {
    const earlier = await this.idempotency.storedAnswer<TransactionResponse>(userId, request);
    if (earlier) return earlier;
    const executedAt = validInstant(parseInstant(body.executed_at), ['body', 'executed_at']);
    if (executedAt.getTime() > this.clock.now().getTime()) {
      throw new ValidationFailedException([
        {
          loc: ['body', 'executed_at'],
          msg: 'Value error, executed_at must not be in the future',
          type: 'value_error',
        },
      ]);
    }
    const symbol = (await this.market.getQuote(body.symbol)).symbol;
    const record: NewTransactionRecord = {
      userId,
      symbol,
      side: body.side,
      quantity: roundQuantity(body.quantity),
      price: roundQuantity(body.price),
      fees: roundQuantity(body.fees ?? 0),
      executedAt,
      note: body.note ?? null,
      createdAt: this.clock.now(),
    };
    return this.transactions.withLockedLedger(
      userId,
      async (ledger) => {
        const existing = await ledger.entries();
        this.assertRoomFor(existing.length, 1);
        const violation = findOversell([...existing, { ...record, id: PROVISIONAL_ID_BASE }]);
        if (violation)
          throw new BadRequestException(ErrorDetail.insufficientQuantityToSell(violation.symbol));
        const [stored] = await this.storedAfterRefresh(ledger, await ledger.insert([record]));
        return toTransactionResponse(stored);
      },
      request,
    );
  }

  async list(userId: number, query: ListTransactionsQuery): Promise<TransactionListResponse> {
    const [rows, total] = await this.transactions.list(userId, {
      symbol: query.symbol ? normalizeSymbol(query.symbol) : undefined,
      from: query.from ? validInstant(parseInstant(query.from), ['query', 'from']) : undefined,
      to: query.to ? validInstant(endOfDayIfDate(query.to), ['query', 'to']) : undefined,
      skip: query.skip,
      limit: query.limit,
    });
    return { transactions: rows.map(toTransactionResponse), total, skip: query.skip, limit: query.limit };
  }

  /** 404 for another user's or a missing id; 400 when a later sell would exceed the quantity held without it. */
  async remove(userId: number, id: number): Promise<void> {
    await this.transactions.withLockedLedger(userId, async (ledger) => {
      const existing = await ledger.entries();
      const target = existing.find((entry) => entry.id === id);
      if (!target) throw new NotFoundException(ErrorDetail.transactionNotFound);
      const violation = findOversell(existing.filter((entry) => entry.id !== id));
      if (violation)
        throw new BadRequestException(ErrorDetail.transactionDeletionWouldOversell(violation.symbol));
      await ledger.delete(id);
      await ledger.refreshRealizedPnl();
    });
  }

  /**
   * All rows recorded in one database transaction, or none: a 422 lists every bad cell
   * (`loc: ["body", row, column]`, row 0 being the first line after the header). With an
   * idempotent request, a retry gets the first answer again.
   */
  async importCsv(
    userId: number,
    csv: string,
    request?: IdempotentRequest,
  ): Promise<TransactionImportResponse> {
    const earlier = await this.idempotency.storedAnswer<TransactionImportResponse>(userId, request);
    if (earlier) return earlier;
    const parsed = parseTransactionsCsv(csv, this.clock.now(), this.config.importMaxRows);
    const issues = [...parsed.issues];
    const canonical = await this.canonicalSymbols([
      ...new Set(parsed.symbolCells.map((cell) => cell.symbol)),
    ]);
    for (const cell of parsed.symbolCells) {
      if (!canonical.has(cell.symbol))
        issues.push(rowIssue(cell.row, 'symbol', ErrorDetail.stockNotFound(cell.symbol)));
    }
    if (issues.length > 0) throw new ValidationFailedException(sortIssues(issues));

    const createdAt = this.clock.now();
    const records: NewTransactionRecord[] = parsed.rows.map((row) => ({
      userId,
      symbol: canonical.get(row.symbol)!,
      side: row.side,
      quantity: roundQuantity(row.quantity),
      price: roundQuantity(row.price),
      fees: roundQuantity(row.fees),
      executedAt: row.executedAt,
      note: row.note,
      createdAt,
    }));
    return this.transactions.withLockedLedger(
      userId,
      async (ledger) => {
        const existing = await ledger.entries();
        this.assertRoomFor(existing.length, records.length);
        const provisional = records.map((record, index) => ({ ...record, id: PROVISIONAL_ID_BASE + index }));
        const violations = findOversells([...existing, ...provisional]);
        if (violations.length > 0) {
          throw new ValidationFailedException(
            violations.map((violation) =>
              violation.entryId >= PROVISIONAL_ID_BASE
                ? rowIssue(
                    parsed.rows[violation.entryId - PROVISIONAL_ID_BASE].row,
                    'quantity',
                    ErrorDetail.insufficientQuantityToSell(violation.symbol),
                  )
                : {
                    loc: ['body'],
                    msg: `Value error, the rows would leave the recorded sell ${violation.entryId} of ${violation.symbol} without enough shares`,
                    type: 'value_error',
                  },
            ),
          );
        }
        const stored = await this.storedAfterRefresh(ledger, await ledger.insert(records));
        return { imported: stored.length, transactions: stored.map(toTransactionResponse) };
      },
      request,
    );
  }

  /** 400 when `adding` more would take the ledger past PORTFOLIO_MAX_TRANSACTIONS. */
  private assertRoomFor(held: number, adding: number): void {
    if (held + adding > this.config.maxTransactions) {
      throw new BadRequestException(ErrorDetail.ledgerFull(this.config.maxTransactions));
    }
  }

  private async storedAfterRefresh(
    ledger: LockedLedger,
    ids: number[],
  ): Promise<PortfolioTransactionEntity[]> {
    await ledger.refreshRealizedPnl();
    return ledger.findByIds(ids);
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

function rowIssue(row: number, column: string, message: string): ValidationIssue {
  return {
    loc: ['body', row, column],
    msg: `Value error, ${message}`,
    type: 'value_error',
    ctx: { error: message },
  };
}

function sortIssues(issues: ValidationIssue[]): ValidationIssue[] {
  const rowOf = (issue: ValidationIssue) => (typeof issue.loc[1] === 'number' ? issue.loc[1] : -1);
  return [...issues].sort((a, b) => rowOf(a) - rowOf(b));
}

/** An ISO date is midnight UTC of that day; a date-time without a zone is taken as UTC. */
export function parseInstant(iso: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return new Date(`${iso}T00:00:00Z`);
  return new Date(/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso) ? iso : `${iso}Z`);
}

/** ISO 8601 also allows week and ordinal dates (2025-W01, 2025-006), which Date cannot read. */
function validInstant(instant: Date, loc: (string | number)[]): Date {
  if (!Number.isNaN(instant.getTime())) return instant;
  throw new ValidationFailedException([
    { loc, msg: 'Input should be a valid datetime or date', type: 'datetime_parsing' },
  ]);
}

function endOfDayIfDate(iso: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T23:59:59.999Z`) : parseInstant(iso);
}
