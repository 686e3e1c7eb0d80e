import { BadRequestException, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ErrorDetail } from '../../common/errors/error-details';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { ValidationIssue } from '../../common/validation/validation-issue';
import { normalizeSymbol } from '../market/market-symbols';
import { findOversell } from './analytics/ledger-replay';
import { planRebalance, RebalancePlan, SymbolTarget } from './analytics/rebalance-plan';
import { symbolTargetsFromSectors } from './analytics/sector-targets';
import { RebalanceRequestDto } from './dto/rebalance-request.dto';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { NewTransactionRecord, PortfolioTransactionsRepository } from './portfolio-transactions.repository';

/** Target weights must sum to 100 within this many percentage points. */
export const WEIGHT_SUM_TOLERANCE = 0.01;
export const REBALANCE_NOTE = 'rebalance';

export interface RebalanceOutcome extends RebalancePlan {
  executed: boolean;
  transactionIds: number[];
}

type TargetList = 'targets' | 'sector_targets';

/** Plans trades toward target weights and, unless it is a dry run, records them in one database transaction. */
@Injectable()
export class RebalanceService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly transactions: PortfolioTransactionsRepository,
    private readonly clock: Clock,
  ) {}

  async rebalance(userId: number, body: RebalanceRequestDto): Promise<RebalanceOutcome> {
    const list = checkTargetLists(body);
    const snapshot = await this.holdings.snapshot(userId);
    const prices = new Map(snapshot.positions.map((position) => [position.symbol, position.currentPrice]));
    const targets =
      list === 'targets' ? await this.symbolTargets(body, prices) : sectorTargets(body, snapshot);

    const plan = planRebalance({
      holdings: snapshot.positions.map((position) => ({
        symbol: position.symbol,
        quantity: position.quantity,
        price: position.currentPrice,
      })),
      targets,
      prices,
      tolerance: body.tolerance ?? 0,
      cash: body.cash ?? 0,
      fractional: body.fractional ?? false,
    });
    if (body.dry_run || plan.trades.length === 0) {
      return { ...plan, executed: !body.dry_run, transactionIds: [] };
    }
    const transactionIds = await this.record(userId, plan);
    return { ...plan, executed: true, transactionIds };
  }

  /** Sells first, so that the buys they fund come after them in the ledger; all at now, without fees. */
  private record(userId: number, plan: RebalancePlan): Promise<number[]> {
    const executedAt = this.clock.now();
    const ordered = [...plan.trades].sort((a, b) => (a.side === b.side ? 0 : a.side === 'sell' ? -1 : 1));
    const records: NewTransactionRecord[] = ordered.map((trade) => ({
      userId,
      symbol: trade.symbol,
      side: trade.side,
      quantity: trade.quantity,
      price: trade.price,
      fees: 0,
      executedAt,
      note: REBALANCE_NOTE,
      createdAt: executedAt,
    }));
    return this.transactions.withLockedLedger(userId, async (ledger) => {
      const existing = await ledger.entries();
      const provisional = records.map((record, index) => ({
        ...record,
        id: Number.MAX_SAFE_INTEGER - records.length + index,
      }));
      // The ledger may have changed since the plan was made; never record a sell it no longer covers.
      const violation = findOversell([...existing, ...provisional]);
      if (violation) throw new BadRequestException(ErrorDetail.insufficientQuantityToSell(violation.symbol));
      const ids = await ledger.insert(records);
      await ledger.refreshRealizedPnl();
      return ids;
    });
  }

  /** Canonical symbols with their prices added to `prices`; 422 at every unknown or repeated symbol. */
  private async symbolTargets(
    body: RebalanceRequestDto,
    prices: Map<string, number>,
  ): Promise<SymbolTarget[]> {
    const requested = body.targets!.map((target) => normalizeSymbol(target.symbol));
    const issues: ValidationIssue[] = duplicates(requested).map((index) =>
      targetIssue('targets', index, 'symbol', `duplicate symbol ${requested[index]}`),
    );
    const unpriced = [...new Set(requested.filter((symbol) => !prices.has(symbol)))];
    const [quotes] = await Promise.all([
      this.holdings.rawQuotes(unpriced),
      this.holdings.loadSectors(unpriced),
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
    if (issues.length > 0) throw new ValidationFailedException(issues);
    return body.targets!.map((target, index) => ({
      symbol: canonical.get(requested[index])!,
      weight: target.weight,
    }));
  }
}

/** Exactly one list, weights summing to 100 ± 0.01. */
function checkTargetLists(body: RebalanceRequestDto): TargetList {
  if ((body.targets === undefined) === (body.sector_targets === undefined)) {
    throw new ValidationFailedException([
      { loc: ['body'], msg: 'Value error, give either targets or sector_targets', type: 'value_error' },
    ]);
  }
  const list: TargetList = body.targets ? 'targets' : 'sector_targets';
  const weights = (body.targets ?? body.sector_targets!).map((target) => target.weight);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 100) > WEIGHT_SUM_TOLERANCE + 1e-9) {
    const message = `weights must sum to 100 (± ${WEIGHT_SUM_TOLERANCE}), not ${Math.round(sum * 1e6) / 1e6}`;
    throw new ValidationFailedException([
      { loc: ['body', list], msg: `Value error, ${message}`, type: 'value_error', ctx: { error: message } },
    ]);
  }
  return list;
}

function sectorTargets(body: RebalanceRequestDto, snapshot: HoldingsSnapshot): SymbolTarget[] {
  const requested = body.sector_targets!;
  const issues = duplicates(requested.map((target) => target.sector)).map((index) =>
    targetIssue('sector_targets', index, 'sector', `duplicate sector ${requested[index].sector}`),
  );
  const { targets, sectorsWithoutHoldings } = symbolTargetsFromSectors(snapshot.positions, requested);
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
  if (issues.length > 0) throw new ValidationFailedException(issues);
  return targets;
}

/** Indexes of the entries that repeat an earlier one. */
function duplicates(values: string[]): number[] {
  return values.flatMap((value, index) => (values.indexOf(value) !== index ? [index] : []));
}

function targetIssue(list: TargetList, index: number, field: string, message: string): ValidationIssue {
  return {
    loc: ['body', list, index, field],
    msg: `Value error, ${message}`,
    type: 'value_error',
    ctx: { error: message },
  };
}
