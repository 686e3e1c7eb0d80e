import type { FieldProblem } from '../../common/errors/field-problems';
import { acceptsAlertField, AlertField, AlertKind, PORTFOLIO_KINDS, PORTFOLIO_TARGET } from './alert-fields';

/**
 * What is wrong with a rule's kind-dependent fields beyond each field's own rules: a field its
 * kind does not take, "portfolio" for a kind that watches one symbol, a rearm_minutes without
 * rearm=after_minutes.
 */
export function alertRuleProblems(
  kind: AlertKind,
  fields: Partial<Record<AlertField, unknown>>,
  rearm: { rearm?: string; rearm_minutes?: number },
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(fields) as [AlertField, unknown][]) {
    if (value !== undefined && !acceptsAlertField(kind, field))
      problems.push({ path: [field], message: `${field} is not accepted for a ${kind} alert` });
  }
  if (fields.symbol === PORTFOLIO_TARGET && !PORTFOLIO_KINDS.includes(kind))
    problems.push({
      path: ['symbol'],
      message: '"portfolio" is only accepted for day_change and drawdown alerts',
    });
  if (rearm.rearm_minutes !== undefined && rearm.rearm !== 'after_minutes')
    problems.push({
      path: ['rearm_minutes'],
      message: 'rearm_minutes is only accepted with rearm=after_minutes',
    });
  return problems;
}
