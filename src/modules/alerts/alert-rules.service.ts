import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { FieldProblems } from '../../common/errors/field-problems';
import { ErrorDetail } from '../../common/errors/error-details';
import { Clock } from '../../common/time/clock';
import { MarketService, normalizeSymbol } from '../market';
import { AlertKind, AlertStatus, MAX_RULES_PER_USER, PORTFOLIO_TARGET, RearmPolicy } from './alert-fields';
import { AlertRule, AlertRuleChanges, AlertThresholds } from './alert-rule';
import { alertRuleProblems } from './alert-rule-problems';
import { AlertRulesRepository } from './alert-rules.repository';

/** A rule as asked for: the kind, the symbol as typed, the thresholds and the rearm policy. */
export interface AlertRuleCommand extends AlertThresholds {
  kind: AlertKind;
  symbol?: string;
  rearm?: RearmPolicy;
  rearm_minutes?: number;
}

export interface AlertRuleChangeCommand extends AlertThresholds {
  status?: 'active' | 'paused';
  rearm?: RearmPolicy;
  rearm_minutes?: number;
}

function thresholdsOf(command: AlertThresholds): AlertThresholds {
  const { price, percent, sentiment, min_score, window_days, delta } = command;
  return Object.fromEntries(
    Object.entries({ price, percent, sentiment, min_score, window_days, delta }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}

/** A user's alert rules: creation with its checks, reads, changes and deletion. */
@Injectable()
export class AlertRulesService {
  constructor(
    private readonly rules: AlertRulesRepository,
    private readonly market: MarketService,
    private readonly clock: Clock,
  ) {}

  async create(userId: number, command: AlertRuleCommand): Promise<AlertRule> {
    const issues = alertRuleProblems(
      command.kind,
      { symbol: command.symbol, ...thresholdsOf(command) },
      command,
    );
    if (issues.length > 0) throw new FieldProblems(issues);
    const symbol = await this.knownSymbol(command.symbol);
    const created = await this.rules.insert(
      userId,
      {
        kind: command.kind,
        symbol,
        thresholds: thresholdsOf(command),
        rearm: command.rearm ?? 'never',
        rearmMinutes: command.rearm_minutes ?? null,
      },
      this.clock.now(),
      MAX_RULES_PER_USER,
    );
    if (!created) throw FieldProblems.invalid([], `at most ${MAX_RULES_PER_USER} alert rules per user`);
    return created;
  }

  list(userId: number, status?: AlertStatus): Promise<AlertRule[]> {
    return this.rules.list(userId, status);
  }

  async get(userId: number, id: number): Promise<AlertRule> {
    const rule = await this.rules.find(userId, id);
    if (!rule) throw new NotFoundError(ErrorDetail.alertNotFound);
    return rule;
  }

  async update(userId: number, id: number, command: AlertRuleChangeCommand): Promise<AlertRule> {
    const current = await this.get(userId, id);
    const rearm = command.rearm ?? current.rearm;
    const issues = alertRuleProblems(current.kind, thresholdsOf(command), {
      rearm,
      rearm_minutes: command.rearm_minutes,
    });
    if (rearm === 'after_minutes' && command.rearm_minutes === undefined && current.rearmMinutes === null)
      issues.push({ path: ['rearm_minutes'], type: 'missing' });
    if (issues.length > 0) throw new FieldProblems(issues);
    const changes: AlertRuleChanges = {
      thresholds: thresholdsOf(command),
      rearm: command.rearm,
      status: command.status,
      rearmMinutes: command.rearm_minutes ?? (command.rearm && rearm !== 'after_minutes' ? null : undefined),
    };
    const updated = await this.rules.update(userId, id, changes, this.clock.now());
    if (!updated) throw new NotFoundError(ErrorDetail.alertNotFound);
    return updated;
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.rules.remove(userId, id))) throw new NotFoundError(ErrorDetail.alertNotFound);
  }

  /** The normalized symbol, "portfolio", or null; 422 at the symbol when the market does not know it. */
  private async knownSymbol(raw: string | undefined): Promise<string | null> {
    if (raw === undefined) return null;
    if (raw === PORTFOLIO_TARGET) return PORTFOLIO_TARGET;
    const symbol = normalizeSymbol(raw);
    const quotes = await this.market.getQuotes([symbol]);
    if (!quotes.get(symbol)) throw FieldProblems.invalid(['symbol'], `unknown symbol ${symbol}`);
    return symbol;
  }
}
