import { FieldProblems } from '../errors/field-problems';
import { commandLocation, locatedIssues } from './located-issues';
import { MAX_LISTED_ISSUES } from './listed-issues';

describe('locatedIssues', () => {
  it("places a rule's reason under the request part, worded as Pydantic's value_error", () => {
    const { problems } = FieldProblems.invalid(['executed_at'], 'executed_at must not be in the future');
    expect(locatedIssues(problems, 'body')).toStrictEqual([
      {
        loc: ['body', 'executed_at'],
        msg: 'Value error, executed_at must not be in the future',
        type: 'value_error',
      },
    ]);
  });

  it('keeps the command as a whole at the part itself, and the ctx a module gives', () => {
    const reason = 'weights must sum to 100 (± 0.01), not 90';
    expect(locatedIssues([{ path: [], message: reason, ctx: { error: reason } }], 'body')).toStrictEqual([
      { loc: ['body'], msg: `Value error, ${reason}`, type: 'value_error', ctx: { error: reason } },
    ]);
  });

  it("words the types a module names without words of its own as Pydantic does, and keeps a module's own message", () => {
    expect(
      locatedIssues(
        [
          { path: ['current_password'], type: 'missing' },
          { path: ['from'], type: 'datetime_parsing' },
          { path: ['texts', 1], type: 'string_type' },
          { path: ['texts', 2], type: 'string_too_long', ctx: { max_length: 5000 } },
          {
            path: [],
            type: 'too_long',
            message: 'CSV should have at most 3 rows, not 4',
            ctx: { max_length: 3 },
          },
        ],
        'query',
      ),
    ).toStrictEqual([
      { loc: ['query', 'current_password'], msg: 'Field required', type: 'missing' },
      { loc: ['query', 'from'], msg: 'Input should be a valid datetime or date', type: 'datetime_parsing' },
      { loc: ['query', 'texts', 1], msg: 'Input should be a valid string', type: 'string_type' },
      {
        loc: ['query', 'texts', 2],
        msg: 'String should have at most 5000 characters',
        type: 'string_too_long',
        ctx: { max_length: 5000 },
      },
      {
        loc: ['query'],
        msg: 'CSV should have at most 3 rows, not 4',
        type: 'too_long',
        ctx: { max_length: 3 },
      },
    ]);
  });

  it('caps the list like every 422, counting the rest at the part', () => {
    const problems = Array.from({ length: MAX_LISTED_ISSUES + 2 }, (_, line) => ({
      path: ['line', line],
      message: 'unknown symbol',
    }));
    const issues = locatedIssues(problems, 'body');
    expect(issues).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(issues[MAX_LISTED_ISSUES]).toMatchObject({ loc: ['body'], type: 'too_many_errors' });
  });
});

describe('commandLocation', () => {
  it('reads a GET command from the query and any other from the body', () => {
    expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map(commandLocation)).toEqual([
      'query',
      'query',
      'body',
      'body',
      'body',
      'body',
    ]);
  });
});
