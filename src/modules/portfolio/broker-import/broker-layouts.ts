// Every brokerage layout the import reads, and how `format=auto` picks one: the layout whose
// signature columns a line of the file holds, all of them (most columns first). When none does, the
// layouts that came closest are named with the columns the file lacked.
import { BrokerFormat, CsvRow } from './broker-export';
import { columnKey } from './cells';
import { BrokerLayout } from './layouts/broker-layout';
import { eTradeLayout } from './layouts/e-trade';
import { fidelityLayout } from './layouts/fidelity';
import { interactiveBrokersLayout } from './layouts/interactive-brokers';
import { merrillEdgeLayout } from './layouts/merrill-edge';
import { nativeLayout } from './layouts/native';
import { robinhoodLayout } from './layouts/robinhood';
import { schwabLayout } from './layouts/schwab';
import { tdAmeritradeLayout } from './layouts/td-ameritrade';
import { vanguardLayout } from './layouts/vanguard';
import { webullLayout } from './layouts/webull';

export const BROKER_LAYOUTS: Record<BrokerFormat, BrokerLayout> = {
  schwab: schwabLayout,
  fidelity: fidelityLayout,
  vanguard: vanguardLayout,
  td_ameritrade: tdAmeritradeLayout,
  interactive_brokers: interactiveBrokersLayout,
  robinhood: robinhoodLayout,
  e_trade: eTradeLayout,
  webull: webullLayout,
  merrill_edge: merrillEdgeLayout,
  native: nativeLayout,
};

/** How far into the file a header is looked for (preambles are a few lines; IBKR's sections more). */
const HEADER_SEARCH_ROWS = 60;

export interface LayoutMatch {
  format: BrokerFormat;
  layout: string;
  /** Of the signature's columns, how many one line of the file holds. */
  found: number;
  missing: string[];
}

/** Each layout signature scored against the file's first lines, best first. */
export function rankLayouts(
  rows: readonly CsvRow[],
  formats: readonly BrokerFormat[] = Object.keys(BROKER_LAYOUTS) as BrokerFormat[],
): LayoutMatch[] {
  const lines = rows.slice(0, HEADER_SEARCH_ROWS).map((row) => new Set(row.cells.map(columnKey)));
  const matches: LayoutMatch[] = [];
  for (const format of formats) {
    for (const signature of BROKER_LAYOUTS[format].signatures) {
      let best: string[] = [...signature.columns];
      for (const cells of lines) {
        const missing = signature.columns.filter((column) => !cells.has(columnKey(column)));
        if (missing.length < best.length) best = missing;
      }
      matches.push({
        format,
        layout: signature.layout,
        found: signature.columns.length - best.length,
        missing: best,
      });
    }
  }
  return matches.sort((a, b) => a.missing.length - b.missing.length || b.found - a.found || 0);
}

/** The format whose layout the file is in, or null with the closest ones. */
export function detectFormat(
  rows: readonly CsvRow[],
  formats?: readonly BrokerFormat[],
): { format: BrokerFormat | null; ranked: LayoutMatch[] } {
  const ranked = rankLayouts(rows, formats);
  const complete = ranked.filter((match) => match.missing.length === 0);
  return { format: complete[0]?.format ?? null, ranked };
}
