import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { FieldProblem, FieldProblems } from '../../common/errors/field-problems';
import { ErrorDetail } from '../../common/errors/error-details';
import { unreachable } from '../../common/types/unreachable';
import { normalizeSymbol } from '../market';
import { LedgerReplay, TransactionKind } from './analytics/ledger-replay';
import { valuePositions, ValuedPosition } from './analytics/position-valuation';
import { planRebalance, RebalancePlan, RebalanceTradeSide, SymbolTarget } from './analytics/rebalance-plan';
import { symbolTargetsFromSectors } from './analytics/sector-targets';
import { RebalanceRequestDto } from './dto/rebalance-request.dto';
import { HoldingsService } from './holdings.service';
import { entriesOfAccount } from './account-ledger';
import { LedgerChange, LedgerService } from './ledger.service';
import { NewLedgerTransaction } from './ledger-transaction';
import { exchangeDay } from './analytics/time-weighted-returns';

/** Target weights must sum to 100 within this many percentage points. */
export const WEIGHT_SUM_TOLERANCE = 0.01;
export const REBALANCE_NOTE = 'rebalance';

export interface RebalanceOutcome extends RebalancePlan {
  executed: boolean;
  transactionIds: number[];
}

type TargetList = 'targets' | 'sector_targets';

/**
 * Plans trades toward target weights and, unless it is a dry run, records them. The executed plan
 * is made from the ledger read under the user's ledger lock, in the transaction that records its
 * trades: a rebalance that ran meanwhile has moved the holdings already and is not repeated.
 */
@Injectable()
export class RebalanceService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
  ) {}

  async rebalance(userId: number, body: RebalanceRequestDto): Promise<RebalanceOutcome> {
    const list = checkTargetLists(body);
    // Targets are resolved before the lock is taken, so that a 422 does not wait on it; the quotes
    // fetched here are in the quote cache when the locked pass values the holdings again.
    const snapshot = await this.holdings.snapshot(userId, body.account_id);
    const prices = new Map(snapshot.positions.map((position) => [position.symbol, position.currentPrice]));
    const symbolTargets = list === 'targets' ? await this.symbolTargets(body, prices) : null;
    const planFor = (positions: readonly ValuedPosition[]) => plan(body, positions, symbolTargets, prices);
    if (body.dry_run) return { ...planFor(snapshot.positions), executed: false, transactionIds: [] };
    return this.ledger.change(userId, async (ledger) => {
      // Executed trades go to the account named, or to the default one.
      const accountId = await ledger.accountFor(body.account_id);
      const entries = entriesOfAccount(await ledger.entries(), body.account_id);
      const planned = planFor(await this.valuedPositions(ledger.replay(entries)));
      if (planned.trades.length === 0) return { ...planned, executed: true, transactionIds: [] };
      const transactionIds = await this.record(ledger, planned, accountId);
      return { ...planned, executed: true, transactionIds };
    });
  }

  /** The holdings a ledger's replay leaves, at the current quotes. */
  private async valuedPositions(replay: LedgerReplay): Promise<ValuedPosition[]> {
    const held = replay.positions;
    const symbols = [...held.keys()];
    const [quotes, sectors] = await Promise.all([
      this.holdings.quotes(symbols),
      this.holdings.sectorsOf(symbols),
    ]);
    return valuePositions(held.values(), quotes, (symbol) => sectors.get(symbol)!);
  }

  /**
   * Sells first, so that the buys they fund come after them in the ledger; all at now, without
   * fees. The plan never sells more than the locked ledger holds.
   */
  private async record(ledger: LedgerChange, plan: RebalancePlan, accountId: number): Promise<number[]> {
    const executedAt = this.clock.now();
    const ordered = [...plan.trades].sort((a, b) => (a.side === b.side ? 0 : a.side === 'sell' ? -1 : 1));
    const records: NewLedgerTransaction[] = ordered.map((trade) => ({
      userId: ledger.userId,
      accountId,
      symbol: trade.symbol,
      side: ledgerSide(trade.side),
      quantity: trade.quantity,
      price: trade.price,
      fees: 0,
      executedAt,
      tradeDate: exchangeDay(executedAt),
      note: REBALANCE_NOTE,
      createdAt: executedAt,
    }));
    return ledger.appendIds(records);
  }

  /** Canonical symbols with their prices added to `prices`; 422 at every unknown or repeated symbol. */
  private async symbolTargets(
    body: RebalanceRequestDto,
    prices: Map<string, number>,
  ): Promise<SymbolTarget[]> {
    const requested = body.targets!.map((target) => normalizeSymbol(target.symbol));
    const issues: FieldProblem[] = duplicates(requested).map((index) =>
      targetIssue('targets', index, 'symbol', `duplicate symbol ${requested[index]}`),
    );
    const unpriced = [...new Set(requested.filter((symbol) => !prices.has(symbol)))];
    const [quotes] = await Promise.all([
      this.holdings.rawQuotes(unpriced),
      // Warms the sector cache for the plan's valuation, which may include these symbols.
      this.holdings.sectorsOf(unpriced),
    ]);
    const canonical = new Map<string, string>();
    for (const [index, symbol] of requested.entries()) {
      if (prices.has(symbol)) {
        canonical.set(symbol, symbol);
        continue;
      }
      const quote = quotes.get(symbol);
      if (!quote) {
        issues.push(targetIssue('targets', index, 'symbol', ErrorDetail.stockNotFound(symbol)));
        continue;
      }
      canonical.set(symbol, quote.symbol);
      prices.set(quote.symbol, Math.round(quote.price * 100) / 100);
    }
    if (issues.length > 0) throw new FieldProblems(issues);
    return body.targets!.map((target, index) => ({
      symbol: canonical.get(requested[index])!,
      weight: target.weight,
    }));
  }
}

/**
 * Trades from these positions toward the targets: the symbol targets given, or the sector targets
 * spread over the positions. `targetPrices` prices the targeted symbols not held.
 */
function plan(
  body: RebalanceRequestDto,
  positions: readonly ValuedPosition[],
  symbolTargets: SymbolTarget[] | null,
  targetPrices: ReadonlyMap<string, number>,
): RebalancePlan {
  const prices = new Map(targetPrices);
  for (const position of positions) prices.set(position.symbol, position.currentPrice);
  return planRebalance({
    holdings: positions.map((position) => ({
      symbol: position.symbol,
      quantity: position.quantity,
      price: position.currentPrice,
    })),
    targets: symbolTargets ?? sectorTargets(body, positions),
    prices,
    tolerance: body.tolerance ?? 0,
    cash: body.cash ?? 0,
    fractional: body.fractional ?? false,
  });
}

/** Exactly one list, weights summing to 100 ± 0.01. */
function checkTargetLists(body: RebalanceRequestDto): TargetList {
  if ((body.targets === undefined) === (body.sector_targets === undefined)) {
    throw FieldProblems.invalid([], 'give either targets or sector_targets');
  }
  const list: TargetList = body.targets ? 'targets' : 'sector_targets';
  const weights = (body.targets ?? body.sector_targets!).map((target) => target.weight);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 100) > WEIGHT_SUM_TOLERANCE + 1e-9) {
    const message = `weights must sum to 100 (± ${WEIGHT_SUM_TOLERANCE}), not ${Math.round(sum * 1e6) / 1e6}`;
    throw new FieldProblems([{ path: [list], message, ctx: { error: message } }]);
  }
  return list;
}

function sectorTargets(body: RebalanceRequestDto, positions: readonly ValuedPosition[]): SymbolTarget[] {
  const requested = body.sector_targets!;
  const issues = duplicates(requested.map((target) => target.sector)).map((index) =>
    targetIssue('sector_targets', index, 'sector', `duplicate sector ${requested[index].sector}`),
  );
  const { targets, sectorsWithoutHoldings } = symbolTargetsFromSectors(positions, requested);
  for (const index of sectorsWithoutHoldings) {
    issues.push(
      targetIssue(
        'sector_targets',
        index,
        'sector',
        `no holdings in ${requested[index].sector} to carry its target`,
      ),
    );
  }
  if (issues.length > 0) throw new FieldProblems(issues);
  return targets;
}

function ledgerSide(side: RebalanceTradeSide): TransactionKind {
  switch (side) {
    case 'buy':
      return 'buy';
    case 'sell':
      return 'sell';
    default:
      return unreachable(side);
  }
}

/** Indexes of the entries that repeat an earlier one. */
function duplicates(values: string[]): number[] {
  const seen = new Set<string>();
  return values.flatMap((value, index) => {
    if (seen.has(value)) return [index];
    seen.add(value);
    return [];
  });
}

function targetIssue(list: TargetList, index: number, field: string, message: string): FieldProblem {
  return { path: [list, index, field], message, ctx: { error: message } };
}
