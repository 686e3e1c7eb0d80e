import type { DailySummaryTime } from '../../preferences';

export const BRIEFING_SECTION_KINDS = [
  'portfolio',
  'watchlist',
  'news',
  'sectors',
  'risk',
  'rebalance',
] as const;
export type BriefingSectionKind = (typeof BRIEFING_SECTION_KINDS)[number];

export interface BriefingSection {
  kind: BriefingSectionKind;
  title: string;
  /** Worded after the user's explanation style, analysis depth and experience level. */
  text: string;
  /** The figures the text was written from (percentages in percent, amounts in USD). */
  data: Record<string, unknown>;
}

/** The daily briefing: what the assistant's route answers and the alerts deliver. */
export interface Briefing {
  asOf: Date;
  /** The daily_summary_time preference it is meant for. */
  summaryTime: DailySummaryTime;
  headline: string;
  sections: BriefingSection[];
  disclaimer: string;
}
