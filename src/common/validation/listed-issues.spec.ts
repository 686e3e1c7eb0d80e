import { listedIssues, MAX_LISTED_ISSUES } from './listed-issues';
import { ValidationIssue } from './validation-issue';

const issue = (row: number): ValidationIssue => ({
  loc: ['body', row, 'date'],
  msg: 'Input should be a valid datetime or date',
  type: 'datetime_parsing',
});
const issues = (count: number) => Array.from({ length: count }, (_, row) => issue(row));

describe('listedIssues', () => {
  it('keeps a list of up to 50 issues as it is', () => {
    expect(listedIssues(issues(MAX_LISTED_ISSUES))).toEqual(issues(MAX_LISTED_ISSUES));
  });

  it('lists the first 50 of a longer list, then one entry counting the rest', () => {
    const sut = listedIssues(issues(100_000));
    expect(sut).toHaveLength(51);
    expect(sut.slice(0, 50)).toEqual(issues(50));
    expect(sut[50]).toEqual({
      loc: ['body'],
      msg: '99950 more issues not listed',
      type: 'too_many_errors',
      ctx: { listed: 50, omitted: 99_950 },
    });
  });

  it('counts what an earlier cut left out when lists are merged', () => {
    const merged = [issue(-1), ...listedIssues(issues(60))];
    expect(listedIssues(merged)[50]).toEqual({
      loc: ['body'],
      msg: '11 more issues not listed',
      type: 'too_many_errors',
      ctx: { listed: 50, omitted: 11 },
    });
  });
});
