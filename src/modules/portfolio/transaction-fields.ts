import { TransactionKind } from './analytics/ledger-replay';
import { MAX_SPLIT_TERM } from './ledger-limits';

/** The request fields that depend on the kind of transaction (`side`). */
export type KindField = 'symbol' | 'quantity' | 'price' | 'fees' | 'amount' | 'withholding_tax' | 'ratio';

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
