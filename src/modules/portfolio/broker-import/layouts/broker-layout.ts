import { BrokerFormat, CsvRow, ExportBuilder, ParsedExport } from '../broker-export';
import { CellError } from '../cells';

/** What a parser may need beyond the rows: the whole text (the native layout reuses its own parser). */
export interface ParseContext {
  text: string;
  now: Date;
  maxRows: number;
}

/** The columns (or leading cells) that identify one layout of a brokerage's export. */
export interface LayoutSignature {
  layout: string;
  columns: readonly string[];
}

export interface BrokerLayout {
  format: BrokerFormat;
  /** The brokerage's name as users know it. */
  label: string;
  signatures: readonly LayoutSignature[];
  parse(rows: readonly CsvRow[], context: ParseContext): ParsedExport;
}

/** Runs `read` on a row; a cell it cannot read rejects the row with the reason. */
export function eachRow(builder: ExportBuilder, row: CsvRow, read: () => void): void {
  try {
    read();
  } catch (error) {
    if (!(error instanceof CellError)) throw error;
    builder.reject(row.line, error.message);
  }
}
