import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ChangeEvent, FormEvent, useId, useState } from 'react';
import { isValidationError } from '@investment-assistant/client';
import { api, ApiError, unwrap } from '../api';
import { idempotencyKey } from '../idempotency-key';

/** The columns the import reads, in the order the preview shows them (`type` and `side` as one). */
const COLUMNS = [
  { key: 'date', label: 'Date' },
  { key: 'kind', label: 'Kind' },
  { key: 'symbol', label: 'Symbol' },
  { key: 'quantity', label: 'Quantity' },
  { key: 'price', label: 'Price' },
  { key: 'fees', label: 'Fees' },
  { key: 'amount', label: 'Amount' },
  { key: 'withholding_tax', label: 'Tax withheld' },
  { key: 'ratio', label: 'Ratio' },
  { key: 'note', label: 'Note' },
] as const;
type Column = (typeof COLUMNS)[number]['key'];

const EXAMPLE =
  'date,type,symbol,quantity,price,fees,amount,withholding_tax,ratio\n' +
  '2025-01-02,deposit,,,,,10000,,\n2025-01-06,buy,AAPL,10,150.25,1,,,\n2025-02-14,dividend,AAPL,,,,2.5,0.38,\n';

interface PreviewRow {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  cells: Partial<Record<Column, string>>;
}
interface Preview {
  columns: Column[];
  rows: PreviewRow[];
  /** One key per previewed file: a double click or a retry records it once. */
  key: string;
}
interface Problem {
  /** The file line, null for the file as a whole. */
  line: number | null;
  column: string | null;
  message: string;
}

/**
 * Reads the file as the service will (papaparse, loaded only when a file is previewed): one row
 * per record, numbered by the line it starts on, blank lines skipped as the service skips them.
 */
async function previewOf(text: string): Promise<Preview> {
  const { default: Papa } = await import('papaparse');
  const records: { cells: string[]; start: number }[] = [];
  let cursor = 0;
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: true,
    step: (result) => {
      const start = cursor + (/^[\r\n]*/.exec(text.slice(cursor))?.[0].length ?? 0);
      records.push({ cells: result.data, start });
      cursor = result.meta.cursor;
    },
  });
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const [header, ...data] = records;
  const names = (header?.cells ?? []).map((name) => name.trim().toLowerCase());
  const indexOf = (name: string) => names.indexOf(name);
  const columns = COLUMNS.map(({ key }) => key).filter((key) =>
    key === 'kind' ? indexOf('type') >= 0 || indexOf('side') >= 0 : indexOf(key) >= 0,
  );
  const cell = (cells: string[], name: string) =>
    indexOf(name) >= 0 ? (cells[indexOf(name)] ?? '').trim() : '';
  return {
    columns,
    key: idempotencyKey(),
    rows: data.map(({ cells, start }) => ({
      line: lineAt(start),
      cells: Object.fromEntries(
        columns.map((key) => [
          key,
          key === 'kind' ? (cell(cells, 'type') || cell(cells, 'side')).toLowerCase() : cell(cells, key),
        ]),
      ),
    })),
  };
}

/** A 422's issues as file lines: `loc: ["body", row, column]`, row 0 being the first data row. */
function problemsOf(error: unknown, preview: Preview): Problem[] {
  if (!(error instanceof ApiError) || !error.body || !isValidationError(error.body)) return [];
  return error.body.detail.map((issue) => {
    const [, where, column] = issue.loc;
    if (typeof where === 'number') {
      return {
        line: preview.rows[where]?.line ?? where + 2,
        column: column === undefined ? null : String(column),
        message: issue.msg,
      };
    }
    return { line: where === 'header' ? 1 : null, column: null, message: issue.msg };
  });
}

/**
 * Imports a CSV ledger: the file is shown as the rows it would record, each with its line
 * number; recording is all or nothing, and a refused file lists its problems by line (and marks
 * those rows) with nothing recorded and the text kept for correcting.
 */
export function CsvImport() {
  const id = useId();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const queryClient = useQueryClient();
  const record = useMutation({
    mutationFn: ({ csv, key }: { csv: string; key: string }) =>
      unwrap(
        api.POST('/api/v1/portfolio/transactions/import', {
          body: csv,
          bodySerializer: (body: string) => body,
          headers: { 'Content-Type': 'text/csv' },
          params: { header: { 'Idempotency-Key': key } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const change = (value: string) => {
    setText(value);
    setPreview(null);
    record.reset();
  };
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) change(await file.text());
  };
  const showPreview = async (event: FormEvent) => {
    event.preventDefault();
    record.reset();
    setPreview(await previewOf(text));
  };
  const problems = preview ? problemsOf(record.error, preview) : [];
  /** Any other failure (an outage, a 409): the same file may be sent again under the same key. */
  const failure = record.error && problems.length === 0 ? record.error : null;
  const problemsAt = (line: number) => problems.filter((problem) => problem.line === line);

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Import from CSV</h2>
      <form onSubmit={(event) => void showPreview(event)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-file`}>CSV file</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => void readFile(event)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-text`}>Or paste the CSV</label>
          <textarea
            id={`${id}-text`}
            rows={6}
            value={text}
            spellCheck={false}
            placeholder={EXAMPLE}
            aria-describedby={`${id}-hint`}
            onChange={(event) => change(event.target.value)}
          />
          <small id={`${id}-hint`} className="hint">
            Header <code>date,symbol,side,quantity,price,fees</code> for trades, or with a <code>type</code>{' '}
            column for every kind:{' '}
            <code>date,type,symbol,quantity,price,fees,amount,withholding_tax,ratio</code>. The whole file is
            recorded, or nothing.
          </small>
        </div>
        <button type="submit" className="secondary" disabled={text.trim() === ''}>
          Preview
        </button>
      </form>

      {preview && (
        <div className="import-preview">
          <h3>{record.isSuccess ? 'Recorded' : 'What will be recorded'}</h3>
          {preview.rows.length === 0 ? (
            <p>The file has no rows after its header.</p>
          ) : (
            // The preview can be wider than the page: focusable, so a keyboard can scroll it.
            <div className="table-scroll" tabIndex={0}>
              <table aria-label="Rows of the file">
                <thead>
                  <tr>
                    <th scope="col">Line</th>
                    {preview.columns.map((key) => (
                      <th scope="col" key={key}>
                        {COLUMNS.find((column) => column.key === key)!.label}
                      </th>
                    ))}
                    {problems.length > 0 && <th scope="col">Problem</th>}
                  </tr>
                </thead>
                <tbody>
                  {preview.rows.map((row) => {
                    const here = problemsAt(row.line);
                    return (
                      <tr key={row.line} className={here.length > 0 ? 'invalid' : undefined}>
                        <th scope="row">{row.line}</th>
                        {preview.columns.map((key) => (
                          <td key={key}>{row.cells[key] || '—'}</td>
                        ))}
                        {problems.length > 0 && (
                          <td className="error">
                            {here
                              .map((problem) => `${problem.column ?? 'row'}: ${problem.message}`)
                              .join('; ')}
                          </td>
                        )}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          {problems.length > 0 && (
            <div role="alert" className="banner error import-problems">
              <div>
                <p>
                  Nothing was recorded: the file has {problems.length}{' '}
                  {problems.length === 1 ? 'problem' : 'problems'}. Correct the file and preview it again.
                </p>
                <ul>
                  {problems.map((problem, index) => (
                    <li key={index}>
                      {problem.line === null ? 'File' : `Line ${problem.line}`}
                      {problem.column ? `, ${problem.column}` : ''}: {problem.message}
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          )}
          {failure && (
            <p role="alert" className="error">
              {failure.message}
            </p>
          )}
          {record.isSuccess ? (
            <p role="status">Imported {record.data.imported} transactions.</p>
          ) : (
            preview.rows.length > 0 &&
            problems.length === 0 && (
              <button
                type="button"
                disabled={record.isPending}
                onClick={() => record.mutate({ csv: text, key: preview.key })}
              >
                Record these {preview.rows.length} transactions
              </button>
            )
          )}
        </div>
      )}
    </section>
  );
}
