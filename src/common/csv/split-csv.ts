export interface SplitCsv {
  records: string[][];
  /** The 1-based line of the file each record starts on (a quoted value may span lines). */
  lines: number[];
  /** When a quoted value is never closed: the index of its cell in the last record, which it ends. */
  unclosedQuoteCell: number | null;
}

/** RFC 4180 records: commas, CRLF or LF line ends, double-quoted fields with "" as an escaped quote. */
export function splitCsv(text: string): SplitCsv {
  const records: string[][] = [];
  const lines: number[] = [];
  let line = 1;
  let recordLine = 1;
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line += 1;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      cells.push(cell);
      records.push(cells);
      lines.push(recordLine);
      line += 1;
      recordLine = line;
      cells = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  const unclosedQuoteCell = quoted ? cells.length : null;
  if (cell !== '' || cells.length > 0 || quoted) {
    cells.push(cell);
    records.push(cells);
    lines.push(recordLine);
  }
  return { records, lines, unclosedQuoteCell };
}
