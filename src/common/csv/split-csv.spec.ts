import { splitCsv } from './split-csv';

describe('splitCsv', () => {
  it('splits records on LF and CRLF and keeps quoted commas, quotes and line breaks', () => {
    expect(splitCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",z')).toEqual({
      records: [
        ['a', 'b'],
        ['x, y', 'say "hi"'],
        ['two\nlines', 'z'],
      ],
      lines: [1, 2, 3],
      unclosedQuoteCell: null,
    });
  });

  it('reports a quote that is never closed, in the record it swallows the rest of the text into', () => {
    expect(splitCsv('a,b\n1,"two\n3,4\n')).toEqual({
      records: [
        ['a', 'b'],
        ['1', 'two\n3,4\n'],
      ],
      lines: [1, 2],
      unclosedQuoteCell: 1,
    });
    expect(splitCsv('"').unclosedQuoteCell).toBe(0);
  });

  it('numbers each record by the line it starts on, past values that span lines', () => {
    expect(splitCsv('h\n"a\r\nb"\n\nc\r\n').lines).toEqual([1, 2, 4, 5]);
  });
});
