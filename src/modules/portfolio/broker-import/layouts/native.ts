// The service's own CSV layout (see POST /portfolio/transactions/import), read by that route's
// parser so both routes accept exactly the same files; each bad cell rejects its row.
import { problemWording } from '../../../../common/validation/located-issues';
import { ExportBuilder } from '../broker-export';
import { parseTransactionsCsv } from '../../import/transactions-csv.parser';
import { BrokerLayout } from './broker-layout';

export const nativeLayout: BrokerLayout = {
  format: 'native',
  label: 'this service (native CSV)',
  signatures: [
    { layout: 'trades', columns: ['date', 'symbol', 'side', 'quantity', 'price'] },
    { layout: 'typed', columns: ['date', 'type'] },
  ],
  parse(rows, { text, now, maxRows }) {
    const parsed = parseTransactionsCsv(text, now, maxRows);
    // parseTransactionsCsv numbers rows from 0 after the header, leaving out blank records.
    const records = rows.filter((row) => !(row.cells.length === 1 && row.cells[0].trim() === ''));
    const lineOf = (row: number) => records[row + 1]?.line ?? 1;
    const builder = new ExportBuilder(
      'native',
      rows[0]?.cells.some((cell) => cell.trim().toLowerCase() === 'type') ? 'typed' : 'trades',
    );
    for (const problem of parsed.problems) {
      const [row, column] = problem.path;
      const where = typeof column === 'string' ? `${column}: ` : '';
      builder.reject(typeof row === 'number' ? lineOf(row) : 1, `${where}${problemWording(problem)}`);
    }
    for (const row of parsed.rows) {
      builder.add({
        line: lineOf(row.row),
        date: row.tradeDate,
        executedAt: row.executedAt,
        action: row.side,
        brokerId: null,
        side: row.side,
        symbol: row.symbol,
        quantity: row.quantity,
        price: row.price,
        fees: row.fees,
        amount: row.amount ?? null,
        withholdingTax: row.withholdingTax ?? null,
        split: row.splitTo ? { to: row.splitTo, from: row.splitFrom! } : null,
      });
      if (row.note) builder.entries[builder.entries.length - 1].action = row.note;
    }
    return builder.finish();
  },
};
