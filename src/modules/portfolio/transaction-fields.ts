import { TransactionKind } from './analytics/ledger-replay';
import { MAX_SPLIT_TERM } from './ledger-limits';

/** The request fields that depend on the kind of transaction (`side`). */
export type KindField =
  'symbol' | 'quantity' | 'price' | 'fees' | 'amount' | 'withholding_tax' | 'ratio' | 'acquired_on';

interface KindFields {
  required: readonly KindField[];
  optional: readonly KindField[];
}

/** Which fields each kind requires and which it accepts; any other of them is refused. */
export const KIND_FIELDS: Record<TransactionKind, KindFields> = {
  buy: { required: ['symbol', 'quantity', 'price'], optional: ['fees'] },
  sell: { required: ['symbol', 'quantity', 'price'], optional: ['fees'] },
  dividend: { required: ['symbol', 'amount'], optional: ['withholding_tax'] },
  split: { required: ['symbol', 'ratio'], optional: [] },
  deposit: { required: ['amount'], optional: [] },
  withdrawal: { required: ['amount'], optional: [] },
  interest: { required: ['amount'], optional: [] },
  fee: { required: ['amount'], optional: ['symbol'] },
  // Cash (amount) or shares (symbol, quantity; coming in, amount is their cost basis): see transferProblems.
  transfer_in: { required: [], optional: ['symbol', 'quantity', 'amount', 'acquired_on'] },
  transfer_out: { required: [], optional: ['symbol', 'quantity', 'amount'] },
};

/** A side outside the known kinds is judged as a trade, so its other fields are checked as before. */
function fieldsOf(side: unknown): KindFields {
  return Object.prototype.hasOwnProperty.call(KIND_FIELDS, side as string)
    ? KIND_FIELDS[side as TransactionKind]
    : KIND_FIELDS.buy;
}

export function requiresField(side: unknown, field: KindField): boolean {
  return fieldsOf(side).required.includes(field);
}

export function acceptsField(side: unknown, field: KindField): boolean {
  const fields = fieldsOf(side);
  return fields.required.includes(field) || fields.optional.includes(field);
}

/** "4:1": 4 shares for every 1 held. */
const SPLIT_RATIO_PATTERN = /^([1-9]\d*):([1-9]\d*)$/;

export interface SplitRatio {
  to: number;
  from: number;
}

/** The ratio's terms, or null when it is not `<to>:<from>` with whole terms. */
export function parseSplitRatio(ratio: string): SplitRatio | null {
  const match = SPLIT_RATIO_PATTERN.exec(ratio);
  return match ? { to: Number(match[1]), from: Number(match[2]) } : null;
}

export function formatSplitRatio(to: number, from: number): string {
  return `${to}:${from}`;
}

export interface FieldProblem {
  field: KindField;
  message: string;
}

/**
 * What is wrong with the kind-dependent fields beyond each field's own rules: a field the kind
 * does not accept, a withholding tax above the dividend, a ratio that is not a split.
 */
export function kindFieldProblems(
  side: TransactionKind,
  fields: Partial<Record<KindField, unknown>>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(fields) as [KindField, unknown][]) {
    if (value !== undefined && !acceptsField(side, field))
      problems.push({ field, message: `${field} is not accepted for a ${side}` });
  }
  if (side === 'transfer_in' || side === 'transfer_out') problems.push(...transferProblems(side, fields));
  const { amount, withholding_tax: withholdingTax, ratio } = fields;
  if (typeof amount === 'number' && typeof withholdingTax === 'number' && withholdingTax > amount)
    problems.push({ field: 'withholding_tax', message: 'withholding_tax must not exceed amount' });
  if (typeof ratio === 'string' && acceptsField(side, 'ratio')) {
    const terms = parseSplitRatio(ratio);
    if (!terms || terms.to > MAX_SPLIT_TERM || terms.from > MAX_SPLIT_TERM)
      problems.push({
        field: 'ratio',
        message: `ratio must be <new shares>:<old shares>, whole numbers from 1 to ${MAX_SPLIT_TERM} (e.g. 4:1 or 1:10)`,
      });
    else if (terms.to === terms.from)
      problems.push({ field: 'ratio', message: 'ratio must change the number of shares' });
  }
  return problems;
}

/**
 * A transfer moves cash (`amount`, no symbol) or shares (`symbol` and `quantity`; coming in, also
 * `amount`, their cost basis, and optionally `acquired_on`, the date they were first bought).
 */
function transferProblems(
  side: 'transfer_in' | 'transfer_out',
  fields: Partial<Record<KindField, unknown>>,
): FieldProblem[] {
  const given = (field: KindField) => fields[field] !== undefined;
  if (!given('symbol')) {
    return [
      ...(given('amount')
        ? []
        : [{ field: 'amount' as const, message: `amount is required for a cash ${side}` }]),
      ...(['quantity', 'acquired_on'] as const).filter(given).map((field) => ({
        field,
        message: `${field} needs a symbol: it is accepted for a share ${side} only`,
      })),
    ];
  }
  const problems: FieldProblem[] = [];
  if (!given('quantity'))
    problems.push({ field: 'quantity', message: `quantity is required for a share ${side}` });
  if (side === 'transfer_in' && !given('amount'))
    problems.push({
      field: 'amount',
      message: 'amount (the cost basis of the shares) is required for a share transfer_in',
    });
  if (side === 'transfer_out' && given('amount'))
    problems.push({
      field: 'amount',
      message: 'amount is not accepted for a share transfer_out: its cost basis goes with it',
    });
  return problems;
}
