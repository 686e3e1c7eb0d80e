import type { AnalysisDepth, ExplanationStyle } from '../../preferences';

/** A section before wording: its conclusion, supporting points, and terms a beginner gets explained. */
export interface SectionDraft {
  conclusion: string;
  points: string[];
  /** Points shown only at the technical depth (volatility, beta, VaR...). */
  technical?: string[];
  terms?: string[];
}

export const TERM_EXPLANATIONS: Record<string, string> = {
  volatility: 'Volatility: how much the value swings from day to day, scaled to a year.',
  beta: 'Beta: how strongly your holdings move with the S&P 500 (1 means in step).',
  var: 'VaR (value at risk): a loss that a normal day should not exceed, 19 days out of 20.',
  sentiment: 'Sentiment: whether a headline reads as good or bad news.',
  drift: 'Drift: how far a weight has moved away from its target.',
  'unrealized p&l': 'Unrealized P&L: gain or loss on what you still hold, if you sold today.',
  sector: 'Sector: the part of the economy a company belongs to.',
};

export interface Wording {
  style: ExplanationStyle;
  depth: AnalysisDepth;
  beginner: boolean;
}

/**
 * step-by-step: numbered steps ending in the conclusion; key-points: bullets; bottom-line-first:
 * the conclusion, then the details. Technical points only at the technical depth; detailed keeps
 * every point, simple only the first two. Beginners get a one-line explanation of each term used.
 */
export function wordSection(draft: SectionDraft, wording: Wording): string {
  const points = [
    ...(wording.depth === 'simple' ? draft.points.slice(0, 2) : draft.points),
    ...(wording.depth === 'technical' ? (draft.technical ?? []) : []),
  ];
  let lines: string[];
  switch (wording.style) {
    case 'step-by-step':
      lines = [...points, `So: ${draft.conclusion}`].map((line, index) => `${index + 1}. ${line}`);
      break;
    case 'key-points':
      lines = [capitalised(draft.conclusion), ...points].map((line) => `- ${line}`);
      break;
    case 'bottom-line-first':
      lines = [`Bottom line: ${draft.conclusion}`, ...points];
      break;
  }
  if (wording.beginner) {
    const terms = (draft.terms ?? []).filter((term) => term in TERM_EXPLANATIONS);
    lines.push(...terms.map((term) => TERM_EXPLANATIONS[term]));
  }
  return lines.join('\n');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
