import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { splitCsv } from '../../common/csv/split-csv';

/** data/graph at the project root, two folders above this file in src/ and in dist/. */
export const GRAPH_DATA_DIR = join(__dirname, '..', '..', '..', 'data', 'graph');

/** One row of data/graph/companies.csv; empty source fields are null. */
export interface CompanyRecord {
  symbol: string;
  name: string;
  sector: string;
  subIndustry: string | null;
  headquarters: string | null;
  dateAdded: string | null;
  cik: string | null;
  founded: string | null;
}

let directory: Promise<readonly CompanyRecord[]> | null = null;

/** The shipped company reference data, read once per process. */
export function loadCompanyDirectory(dataDir = GRAPH_DATA_DIR): Promise<readonly CompanyRecord[]> {
  if (dataDir !== GRAPH_DATA_DIR) return readDirectory(dataDir);
  directory ??= readDirectory(dataDir);
  directory.catch(() => (directory = null));
  return directory;
}

async function readDirectory(dataDir: string): Promise<readonly CompanyRecord[]> {
  const text = await readFile(join(dataDir, 'companies.csv'), 'utf8');
  const [columns, ...rows] = splitCsv(text).records.filter((cells) => cells.join('') !== '');
  return rows.map((cells) => {
    const field = (name: string): string | null => cells[columns.indexOf(name)]?.trim() || null;
    return {
      symbol: field('symbol')!,
      name: field('name')!,
      sector: field('gics_sector')!,
      subIndustry: field('gics_sub_industry'),
      headquarters: field('headquarters'),
      dateAdded: field('date_added'),
      cik: field('cik'),
      founded: field('founded'),
    };
  });
}
