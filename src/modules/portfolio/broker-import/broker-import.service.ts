import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ConflictError, NotFoundError } from '../../../common/errors/domain-errors';
import { ErrorDetail } from '../../../common/errors/error-details';
import { FieldProblem, FieldProblems } from '../../../common/errors/field-problems';
import { Clock } from '../../../common/time/clock';
import { portfolioConfig } from '../../../config/portfolio.config';
import { MarketService, normalizeSymbol } from '../../market';
import { findCashShortfall, LedgerEntry, TransactionKind } from '../analytics/ledger-replay';
import { LedgerService, provisionalId } from '../ledger.service';
import { NewLedgerTransaction } from '../ledger-transaction';
import { PortfolioAccountsRepository } from '../portfolio-accounts.repository';
import { PortfolioSettingsService } from '../portfolio-settings.service';
import { PortfolioTransactionsRepository } from '../portfolio-transactions.repository';
import { nullable, quantity as roundQuantity } from '../portfolio-rounding';
import { formatSplitRatio } from '../transaction-fields';
import { BrokerFormat, ImportedEntry, RejectedRow } from './broker-export';
import { BrokerImportRepository } from './broker-import.repository';
import { FittingEntry, fitToLedger, inRecordingOrder } from './ledger-fit';
import { PackedEntries, packEntries, PreviewEntry, unpackEntries } from './preview-entries';
import { readBrokerExport, ReadExport, UnrecognisedLayoutError } from './read-broker-export';
import { BROKER_LAYOUTS } from './broker-layouts';

/** How many of the rows to record a preview shows. */
export const PREVIEW_ROWS = 20;
/** How long a preview can be committed with its token. */
const PREVIEW_LIFETIME_MS = 60 * 60 * 1000;
const NOTE_MAX_LENGTH = 500;

export interface BrokerImportRequest {
  userId: number;
  text: string;
  format: BrokerFormat | 'auto';
  dryRun: boolean;
  /** The account the rows go to; the default account when left out. */
  accountId?: number;
}

export interface PreviewRow {
  line: number;
  side: TransactionKind;
  date: string;
  symbol: string | null;
  quantity: number | null;
  price: number | null;
  fees: number | null;
  amount: number | null;
  withholding_tax: number | null;
  ratio: string | null;
  note: string;
  paired_with: number | null;
}

/** Why recording a preview would be refused although every row fits: the commit's own detail. */
export interface ImportRefusal {
  detail: string;
  /** The row that takes the cash below zero under strict cash; null for the ledger cap. */
  line: number | null;
}

/** What an import answers, previewed or recorded. */
export interface BrokerImportAnswer {
  format: BrokerFormat;
  layout: string;
  detected: boolean;
  dry_run: boolean;
  preview_token: string | null;
  expires_at: string | null;
  counts: Partial<Record<TransactionKind, number>>;
  to_record: number;
  recorded: number;
  rows: PreviewRow[];
  skipped: { line: number; action: string; reason: string }[];
  rejected: RejectedRow[];
  duplicates: { line: number; transaction_id: number }[];
  combined: { line: number; into: number }[];
  notices: string[];
  refused: ImportRefusal | null;
}

/** An entry ready to record, with what its preview row shows (JSON: the instant as text). */
interface KeyedEntry extends Omit<FittingEntry, 'executedAt'> {
  executedAt: string;
  key: string;
  accountId: number;
}

/**
 * Imports brokerage exports into the caller's ledger: reads the file (format named or detected),
 * checks symbols with the market-data provider, leaves out what was imported before (by import
 * key), fits the rest to the ledger, and either answers a preview (dry run: stored for its token)
 * or records every fitting entry in one ledger change. Nothing is recorded from an import with
 * rejected rows unless a preview of it is committed.
 */
@Injectable()
export class BrokerImportService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly transactions: PortfolioTransactionsRepository,
    private readonly imports: BrokerImportRepository,
    private readonly accounts: PortfolioAccountsRepository,
    private readonly market: MarketService,
    private readonly settings: PortfolioSettingsService,
    private readonly clock: Clock,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
  ) {}

  async importExport(request: BrokerImportRequest): Promise<BrokerImportAnswer> {
    const now = this.clock.now();
    const parsed = this.read(request);
    const keyed = withImportKeys(parsed);
    const { known, unknown } = await this.knownSymbols(keyed);
    const accountId = await this.targetAccount(request.userId, request.accountId);
    const ledger = (await this.transactions.ledger(request.userId)).entries;
    const existing = ledger.filter((entry) => entry.accountId === accountId);
    const recorded = await this.imports.recordedKeys(
      request.userId,
      known.map((entry) => entry.key),
    );
    const duplicates = known
      .filter((entry) => recorded.has(entry.key))
      .map((entry) => ({ line: entry.line, transaction_id: recorded.get(entry.key)! }));
    const fresh = known.filter((entry) => !recorded.has(entry.key));
    const fit = fitToLedger(existing, inRecordingOrder(fresh), now);
    const keyByLine = new Map(keyed.map((entry) => [entry.line, entry.key]));
    const accepted: KeyedEntry[] = fit.accepted.map((entry) => ({
      ...entry,
      executedAt: entry.executedAt.toISOString(),
      key: keyByLine.get(entry.line)!,
      accountId,
    }));
    const rejected = [...parsed.rejected, ...unknown, ...fit.rejected].sort((a, b) => a.line - b.line);
    const refused = await this.refusal(request.userId, parsed.format, ledger.length, existing, accepted, now);
    const answer = answerOf(parsed, accepted, rejected, duplicates, request.dryRun, refused);
    if (request.dryRun) {
      const expiresAt = new Date(now.getTime() + PREVIEW_LIFETIME_MS);
      const token = await this.imports.savePreview(
        request.userId,
        packEntries(accepted),
        answer,
        now,
        expiresAt,
      );
      return { ...answer, preview_token: token, expires_at: expiresAt.toISOString() };
    }
    if (rejected.length > 0) throw new FieldProblems(rejected.map(rejectedProblem));
    return this.record(request.userId, { entries: accepted, answer });
  }

  /**
   * The account named (404 when it is not the user's), else the user's default account: what
   * LedgerChange.accountFor decides for a write, read here without the ledger lock (a dry run holds none).
   */
  private async targetAccount(userId: number, requested: number | undefined): Promise<number> {
    if (requested === undefined) return this.accounts.defaultId(userId);
    if (!(await this.accounts.find(userId, requested))) throw new NotFoundError(ErrorDetail.accountNotFound);
    return requested;
  }

  /**
   * Why the ledger would refuse the entries although each fits (see LedgerChange.append): more
   * than PORTFOLIO_MAX_TRANSACTIONS, or, under strict cash, a balance taken below zero (and below
   * where it stood), at the first row that does it. Read without the ledger lock, so a preview
   * says what its commit would answer; the commit checks again.
   */
  private async refusal(
    userId: number,
    format: BrokerFormat,
    ledgerSize: number,
    existing: readonly LedgerEntry[],
    accepted: readonly KeyedEntry[],
    now: Date,
  ): Promise<ImportRefusal | null> {
    if (ledgerSize + accepted.length > this.config.maxTransactions)
      return { detail: ErrorDetail.ledgerFull(this.config.maxTransactions), line: null };
    if (accepted.length === 0 || !(await this.settings.settings(userId)).strictCash) return null;
    const appended = accepted.map((entry, index) => ({
      ...ledgerRecord(userId, entry, format, now),
      id: provisionalId(index),
    }));
    const shortfall = findCashShortfall([...existing, ...appended], existing);
    if (!shortfall) return null;
    const index = shortfall.id - provisionalId(0);
    return {
      detail: ErrorDetail.insufficientCash(shortfall.side),
      line: index >= 0 ? accepted[index].line : null,
    };
  }

  /** Records the preview of `token` exactly as it was shown; 404 for an unknown, used or expired token. */
  async commitPreview(userId: number, token: string): Promise<BrokerImportAnswer> {
    return this.record(userId, { token });
  }

  /**
   * Records the entries in one locked ledger change, with their import keys; 409 when any of them
   * was recorded since the file was read (another import of the same transactions won the race).
   */
  private async record(
    userId: number,
    source: { entries: readonly PreviewEntry[]; answer: BrokerImportAnswer } | { token: string },
  ): Promise<BrokerImportAnswer> {
    const now = this.clock.now();
    return this.ledger.change(userId, async (ledger) => {
      let entries: readonly PreviewEntry[];
      let answer: BrokerImportAnswer;
      if ('token' in source) {
        const preview = await this.imports.takePreview<PackedEntries | PreviewEntry[], BrokerImportAnswer>(
          userId,
          source.token,
        );
        if (!preview || preview.expiresAt.getTime() <= now.getTime())
          throw new NotFoundError(
            'Import preview not found: it expired, was committed already, or is not yours',
          );
        entries = unpackEntries(preview.entries);
        answer = preview.answer;
      } else {
        ({ entries, answer } = source);
      }
      const already = await this.imports.recordedKeys(
        userId,
        entries.map((entry) => entry.key),
      );
      if (already.size > 0)
        throw new ConflictError(
          `${already.size} of these broker transactions were recorded since the file was read: import it again to see what is left`,
        );
      const records: NewLedgerTransaction[] = entries.map((entry) =>
        ledgerRecord(userId, entry, answer.format, now),
      );
      const ids = await ledger.appendIds(records);
      await this.imports.insertKeys(
        userId,
        ids.map((transactionId, index) => ({ key: entries[index].key, transactionId })),
      );
      return {
        ...answer,
        dry_run: false,
        preview_token: null,
        expires_at: null,
        recorded: ids.length,
        refused: null,
      };
    });
  }

  private read(request: BrokerImportRequest): ReadExport {
    let parsed: ReadExport;
    try {
      parsed = readBrokerExport(request.text, request.format, {
        now: this.clock.now(),
        maxRows: this.config.brokerImportMaxRows,
      });
    } catch (error) {
      if (!(error instanceof UnrecognisedLayoutError)) throw error;
      throw new FieldProblems([
        {
          path: [],
          message: error.message,
          ctx: {
            error: error.message,
            closest: error.closest.map((match) => ({
              format: match.format,
              layout: match.layout,
              missing_columns: match.missing,
            })),
          },
        },
      ]);
    }
    const rows = parsed.entries.length + parsed.skipped.length + parsed.rejected.length;
    if (rows === 0)
      throw FieldProblems.invalid(
        [],
        `the file is a ${BROKER_LAYOUTS[parsed.format].label} export with no transactions`,
      );
    if (rows > this.config.brokerImportMaxRows)
      throw new FieldProblems([
        {
          path: [],
          message: `CSV should have at most ${this.config.brokerImportMaxRows} rows, not ${rows}`,
          type: 'too_long',
          ctx: { max_length: this.config.brokerImportMaxRows, actual_length: rows },
        },
      ]);
    return parsed;
  }

  /** The entries whose symbol the provider knows (spelled its way), and a rejection for each other. */
  private async knownSymbols(entries: (ImportedEntry & { key: string })[]) {
    const symbols = [...new Set(entries.flatMap((entry) => (entry.symbol === null ? [] : [entry.symbol])))];
    const quotes = await this.market.getQuotes(symbols);
    const known: (ImportedEntry & { key: string })[] = [];
    const unknown: RejectedRow[] = [];
    for (const entry of entries) {
      if (entry.symbol === null) {
        known.push(entry);
        continue;
      }
      const quote = quotes.get(normalizeSymbol(entry.symbol));
      if (quote) known.push(quote.symbol === entry.symbol ? entry : { ...entry, symbol: quote.symbol });
      else
        unknown.push({
          line: entry.line,
          reason: `Stock ${entry.symbol} not found: the market-data provider does not know it`,
        });
    }
    return { known, unknown };
  }
}

/**
 * Each entry's import key: the broker's transaction id where the file has one, else a fingerprint
 * of its date, action, symbol, quantity, price and amount with its place among equal rows, so an
 * overlapping download yields the same keys for the same transactions.
 */
export function withImportKeys(parsed: ReadExport): (ImportedEntry & { key: string })[] {
  const seen = new Map<string, number>();
  return parsed.entries.map((entry) => {
    const identity = entry.brokerId
      ? `id|${entry.brokerId}`
      : `row|${entry.date}|${entry.action}|${entry.side}|${entry.symbol ?? ''}|${entry.quantity}|${entry.price}|${entry.amount ?? ''}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    const digest = createHash('sha256').update(`${identity}|${occurrence}`).digest('base64url');
    return { ...entry, key: `${parsed.format}:${digest}` };
  });
}

function ledgerRecord(
  userId: number,
  entry: PreviewEntry,
  format: BrokerFormat,
  now: Date,
): NewLedgerTransaction {
  const trade = entry.side === 'buy' || entry.side === 'sell';
  return {
    userId,
    symbol: entry.symbol,
    side: entry.side,
    quantity: trade || movesShares(entry) ? roundQuantity(entry.quantity) : 0,
    price: trade ? roundQuantity(entry.price) : 0,
    fees: trade ? roundQuantity(entry.fees) : 0,
    amount: trade || entry.side === 'split' ? null : nullable(entry.amount, roundQuantity),
    withholdingTax: entry.side === 'dividend' ? roundQuantity(entry.withholdingTax ?? 0) : null,
    splitTo: entry.splitTo,
    splitFrom: entry.splitFrom,
    executedAt: new Date(entry.executedAt),
    tradeDate: entry.date,
    accountId: entry.accountId,
    note: noteOf(format, entry),
    createdAt: now,
  };
}

function noteOf(format: BrokerFormat, entry: { line: number; action: string }): string {
  return `${BROKER_LAYOUTS[format].label} line ${entry.line}: ${entry.action.replace(/\s+/g, ' ').trim()}`.slice(
    0,
    NOTE_MAX_LENGTH,
  );
}

function answerOf(
  parsed: ReadExport,
  accepted: KeyedEntry[],
  rejected: RejectedRow[],
  duplicates: { line: number; transaction_id: number }[],
  dryRun: boolean,
  refused: ImportRefusal | null,
): BrokerImportAnswer {
  const counts: Partial<Record<TransactionKind, number>> = {};
  for (const entry of accepted) counts[entry.side] = (counts[entry.side] ?? 0) + 1;
  return {
    format: parsed.format,
    layout: parsed.layout,
    detected: parsed.detected,
    dry_run: dryRun,
    preview_token: null,
    expires_at: null,
    counts,
    to_record: accepted.length,
    recorded: 0,
    rows: accepted.slice(0, PREVIEW_ROWS).map((entry) => previewRow(parsed.format, entry)),
    skipped: parsed.skipped,
    rejected,
    duplicates: duplicates.sort((a, b) => a.line - b.line),
    combined: parsed.combined.map(({ line, into }) => ({ line, into })),
    notices: parsed.notices,
    refused,
  };
}

function previewRow(format: BrokerFormat, entry: KeyedEntry): PreviewRow {
  const trade = entry.side === 'buy' || entry.side === 'sell';
  return {
    line: entry.line,
    side: entry.side,
    date: entry.date,
    symbol: entry.symbol,
    quantity: trade || movesShares(entry) ? entry.quantity : null,
    price: trade ? entry.price : null,
    fees: trade ? entry.fees : null,
    amount: trade || entry.side === 'split' ? null : entry.amount,
    withholding_tax: entry.side === 'dividend' ? (entry.withholdingTax ?? 0) : null,
    ratio: entry.splitTo === null ? null : formatSplitRatio(entry.splitTo, entry.splitFrom!),
    note: noteOf(format, entry),
    paired_with: entry.pairedWith ?? null,
  };
}

/** A transfer of shares (rather than of cash): it carries their quantity. */
function movesShares(entry: { side: TransactionKind; symbol: string | null }): boolean {
  return (entry.side === 'transfer_in' || entry.side === 'transfer_out') && entry.symbol !== null;
}

function rejectedProblem(row: RejectedRow): FieldProblem {
  return { path: ['line', row.line], message: row.reason, ctx: { error: row.reason } };
}
