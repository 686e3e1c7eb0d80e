// What every answer to a fuzzed request must look like: never a 5xx, the spec's error shape for
// every 4xx, and nothing of the server's insides (stack traces, SQL, driver errors) in any body.

export interface CheckedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** 5xx answers that describe the deployment, not the request: allowed, exactly as written. */
const CONFIGURATION_ANSWERS = [
  { status: 503, body: { detail: 'Social sentiment is not available. Set FINNHUB_API_KEY to enable it' } },
];

const LEAKS: RegExp[] = [
  /\n\s+at .+:\d+:\d+/,
  /\bat (?:async )?\S+ \(\S+:\d+:\d+\)/,
  /node_modules|\/src\/\S+\.[jt]s/,
  /QueryFailedError|TypeORMError|EntityNotFound|DatabaseError|PGlite|pg-protocol/i,
  /RangeError|TypeError|ReferenceError|URIError|Maximum call stack/,
  /syntax error at or near|violates (?:check|foreign key|unique|not-null) constraint|invalid input syntax for/i,
  /duplicate key value|numeric field overflow|out of range for type|invalid byte sequence for encoding/i,
  /relation "[^"]+" does not exist|column "[^"]+" does not exist|prepared statement|portal "[^"]*"/i,
];
/** SQL text; only looked for in error bodies, since data (news) may use the words. */
const SQL = /\bSELECT\b[\s\S]{0,200}\bFROM\b|\bINSERT INTO\b|\bUPDATE\b\s+\S+\s+SET\b|\bDELETE FROM\b/;

const ISSUE_KEYS = ['loc', 'msg', 'type', 'ctx'];
const LOCATIONS = ['body', 'query', 'path', 'header'];

export function problemsWith(response: CheckedResponse): string[] {
  const problems: string[] = [];
  const leak = LEAKS.find((pattern) => pattern.test(response.body));
  if (leak) problems.push(`the body shows server internals (${leak})`);
  if (response.statusCode >= 500) {
    const allowed = CONFIGURATION_ANSWERS.some(
      (answer) => answer.status === response.statusCode && JSON.stringify(answer.body) === response.body,
    );
    if (!allowed) problems.push(`server error ${response.statusCode}`);
    return problems;
  }
  if (response.statusCode < 400) return problems;
  if (SQL.test(response.body)) problems.push('the error body shows SQL');
  if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) {
    problems.push(`error content type ${String(response.headers['content-type'])}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [...problems, 'the error body is not JSON'];
  }
  return [...problems, ...errorShapeProblems(response.statusCode, body)];
}

function errorShapeProblems(status: number, body: unknown): string[] {
  if (!isPlainObject(body) || Object.keys(body).join() !== 'detail') {
    return ['the error body is not exactly {detail}'];
  }
  const detail = body.detail;
  if (typeof detail === 'string') {
    if (status === 422) return ['a 422 without the validation list'];
    return detail.trim() === '' ? ['an empty detail'] : [];
  }
  if (!Array.isArray(detail) || detail.length === 0)
    return ['detail is neither a string nor a list of issues'];
  if (status !== 422) return [`a validation list with status ${status}`];
  return detail.flatMap((issue, index) =>
    issueProblems(issue).map((problem) => `issue ${index}: ${problem}`),
  );
}

function issueProblems(issue: unknown): string[] {
  if (!isPlainObject(issue)) return ['not an object'];
  const problems: string[] = [];
  const extra = Object.keys(issue).filter((key) => !ISSUE_KEYS.includes(key));
  if (extra.length > 0) problems.push(`unexpected keys ${extra.join(', ')}`);
  const { loc, msg, type, ctx } = issue;
  if (
    !Array.isArray(loc) ||
    loc.length === 0 ||
    !LOCATIONS.includes(loc[0]) ||
    !loc.every((part) => typeof part === 'string' || Number.isInteger(part))
  ) {
    problems.push(`bad loc ${JSON.stringify(loc)}`);
  }
  if (typeof msg !== 'string' || msg === '') problems.push('msg is not a text');
  if (typeof type !== 'string' || type === '') problems.push('type is not a text');
  if (ctx !== undefined && !isPlainObject(ctx)) problems.push('ctx is not an object');
  return problems;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
