import { splitCsv } from '../../../common/csv/split-csv';
import { BrokerFormat, CsvRow, ParsedExport } from './broker-export';
import { BROKER_LAYOUTS, detectFormat, LayoutMatch } from './broker-layouts';

/** The file is in no layout the import reads (or not in the one asked for): the closest ones, and what they lacked. */
export class UnrecognisedLayoutError extends Error {
  constructor(
    readonly asked: BrokerFormat | 'auto',
    readonly closest: LayoutMatch[],
  ) {
    super(
      `${asked === 'auto' ? 'No brokerage layout matches the file' : `The file is not in the ${BROKER_LAYOUTS[asked].label} layout`}; closest: ${closest
        .map((match) => `${match.format} ${match.layout} (missing ${match.missing.join(', ')})`)
        .join('; ')}`,
    );
  }
}

export interface ReadExport extends ParsedExport {
  /** Whether the format was detected (format=auto) rather than named. */
  detected: boolean;
}

/** How many of the closest layouts a failed detection names. */
const CLOSEST_NAMED = 3;

/** Parses an export (BOM removed, UTF-8 text) in the named format, or in the one it is detected to be in. */
export function readBrokerExport(
  text: string,
  format: BrokerFormat | 'auto',
  context: { now: Date; maxRows: number },
): ReadExport {
  const body = text.replace(/^\uFEFF/, '');
  const split = splitCsv(body);
  const rows: CsvRow[] = split.records.map((cells, index) => ({ cells, line: split.lines[index] }));
  const { format: found, ranked } = detectFormat(rows, format === 'auto' ? undefined : [format]);
  if (!found) throw new UnrecognisedLayoutError(format, ranked.slice(0, CLOSEST_NAMED));
  const parsed = BROKER_LAYOUTS[found].parse(rows, { text: body, ...context });
  return { ...parsed, detected: format === 'auto' };
}
