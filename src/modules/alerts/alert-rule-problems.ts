import { ValidationIssue } from '../../common/validation/validation-issue';
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
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [field, value] of Object.entries(fields) as [AlertField, unknown][]) {
    if (value !== undefined && !acceptsAlertField(kind, field))
      issues.push({
        loc: ['body', field],
        msg: `Value error, ${field} is not accepted for a ${kind} alert`,
        type: 'value_error',
      });
  }
  if (fields.symbol === PORTFOLIO_TARGET && !PORTFOLIO_KINDS.includes(kind))
    issues.push({
      loc: ['body', 'symbol'],
      msg: `Value error, "portfolio" is only accepted for day_change and drawdown alerts`,
      type: 'value_error',
    });
  if (rearm.rearm_minutes !== undefined && rearm.rearm !== 'after_minutes')
    issues.push({
      loc: ['body', 'rearm_minutes'],
      msg: 'Value error, rearm_minutes is only accepted with rearm=after_minutes',
      type: 'value_error',
    });
  return issues;
}
