// fast-check arbitraries that build whole HTTP requests for one OpenAPI operation: valid values
// from each schema mixed with hostile ones (wrong types, extreme numbers, NUL and control
// characters, lone surrogates, malformed percent-escapes, deep nesting, huge lists, duplicate
// keys, bytes that are not UTF-8, wrong content types, bad credentials).
import fc from 'fast-check';
import { Operation, Parameter, Schema } from './openapi-operations';

export interface RequestContext {
  /** The Authorization value of the user the operation runs as; null for public operations. */
  authorization: string | null;
  /** Other credentials that must be refused here (a refresh token, another scheme). */
  wrongAuthorizations: string[];
  /** A last word on a generated path value, e.g. to keep admin operations off protected users. */
  pathValue?: (name: string, value: string) => string;
}

export class FuzzRequest {
  constructor(
    readonly method: Operation['method'],
    readonly url: string,
    readonly headers: Record<string, string>,
    readonly payload: string | Buffer | undefined,
  ) {}

  /** How fast-check prints a counterexample: long payloads cut short. */
  [fc.toStringMethod](): string {
    const payload =
      this.payload === undefined
        ? ''
        : Buffer.isBuffer(this.payload)
          ? ` bytes ${this.payload.subarray(0, 200).toString('hex')}${this.payload.length > 200 ? '…' : ''}`
          : ` ${JSON.stringify(this.payload.length > 300 ? `${this.payload.slice(0, 300)}…(${this.payload.length} chars)` : this.payload)}`;
    const url = this.url.length > 400 ? `${this.url.slice(0, 400)}…(${this.url.length} chars)` : this.url;
    return `${this.method} ${url} ${JSON.stringify(this.headers)}${payload}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedValue = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? { a: value } : [value];
  return value;
};

const HOSTILE_STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'true',
  'undefined',
  '1e999',
  '0x1F',
  '١٢٣',
  '%',
  '%zz',
  '%00',
  '%E0%A4%A',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff\ud800y',
  '\u202eevil',
  '\ufeffbom',
  '😀🏳️‍🌈',
  'e\u0301',
  '\u2028\u2029',
  'AAPL\u0000',
  'beginner\u0000',
];

const controlCharacters = fc.string({
  unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  maxLength: 8,
});

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: controlCharacters, weight: 1 },
  { arbitrary: fc.constantFrom('x'.repeat(5_001), 'é'.repeat(70_000)), weight: 1 },
);

const NUMBER_TEXTS = [
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  '1e300',
  '-1e300',
  '1e17',
  '4e-9',
  '-1',
  '0',
  '-0',
  '1.5',
  ' 1',
  '1 ',
  '+1',
  '0x10',
  '1_000',
  '00001',
  'Infinity',
  'NaN',
];

const EXTREME_NUMBERS = [
  0,
  -1,
  1,
  1.5,
  1e308,
  -1e308,
  5e-324,
  4e-9,
  1e-8,
  1e17,
  2 ** 31,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  1e21,
];

const HUGE_LIST = new Array(20_000).fill(1);

export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...EXTREME_NUMBERS), weight: 3 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: fc.constantFrom(true, false, null), weight: 1 },
  { arbitrary: fc.array(fc.oneof(hostileString, fc.integer()), { maxLength: 4 }), weight: 1 },
  {
    arbitrary: fc.dictionary(hostileString, fc.oneof(hostileString, fc.integer()), { maxKeys: 3 }),
    weight: 1,
  },
  { arbitrary: fc.constantFrom(HUGE_LIST, nestedValue(40)), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Values from a schema

const SAMPLE_TEXTS = [
  'AAPL',
  'msft',
  '^GSPC',
  'BRK.B',
  'BRK-B',
  'beginner',
  'news',
  'technology',
  'ada@example.com',
];

function validString(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('2013-01-01T00:00:00Z'),
        max: new Date('2026-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
  }
  if (schema.format === 'date') {
    return fc
      .date({
        min: new Date('2013-01-01T00:00:00Z'),
        max: new Date('2026-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
  }
  if (schema.format === 'email') return fc.emailAddress();
  const options: fc.Arbitrary<string>[] = [fc.constantFrom(...SAMPLE_TEXTS)];
  if (typeof schema.example === 'string') options.push(fc.constant(schema.example));
  if (schema.pattern) options.push(fc.stringMatching(new RegExp(schema.pattern)));
  else
    options.push(
      fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) }),
    );
  return fc.oneof(...options);
}

function validNumber(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  if (schema.type === 'integer') {
    return fc.integer({
      min: Math.ceil(Math.max(min, -(2 ** 31))),
      max: Math.floor(Math.min(max, 2 ** 31 - 1)),
    });
  }
  return fc.oneof(
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(min, max, ...(typeof schema.example === 'number' ? [schema.example] : [])),
  );
}

/** A value the schema allows; with `hostile`, nested fields may still be hostile (see `field`). */
function validValue(schema: Schema, depth: number, hostile: boolean): fc.Arbitrary<unknown> {
  const value = ((): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'string':
        return validString(schema);
      case 'number':
      case 'integer':
        return validNumber(schema);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(field(schema.items ?? {}, hostile, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
        });
      case 'object':
      default:
        return objectValue(schema, depth, hostile);
    }
  })();
  return schema.nullable ? fc.option(value, { nil: null, freq: 5 }) : value;
}

function objectValue(schema: Schema, depth: number, hostile: boolean): fc.Arbitrary<unknown> {
  if (!schema.properties) return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  const record = fc.record(
    Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [
        name,
        field(property, hostile, depth + 1),
      ]),
    ),
    { requiredKeys: schema.required ?? [] },
  );
  // A documented example is a known-good body (e.g. weights that sum to 100).
  return typeof schema.example === 'object' && schema.example !== null
    ? fc.oneof(fc.constant(schema.example), record)
    : record;
}

/** Valid; or, with `hostile`, mostly valid and sometimes hostile, at any level. */
function field(schema: Schema, hostile: boolean, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return hostile ? hostileJson : fc.constant(null);
  const valid = validValue(schema, depth, hostile);
  return hostile ? fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostileJson, weight: 1 }) : valid;
}

/** A body as the schema describes it; with `hostile`, also hostile fields, unknown keys or nothing. */
function bodyValue(schema: Schema, hostile: boolean): fc.Arbitrary<unknown> {
  const fields = field(schema, hostile);
  if (!hostile || !schema.properties) return fields;
  const withUnknownKeys = fc
    .tuple(
      validValue(schema, 0, false),
      fc.dictionary(hostileString, hostileJson, { minKeys: 1, maxKeys: 2 }),
    )
    .map(([valid, extra]) => ({ ...extra, ...(valid as object) }));
  return fc.oneof(
    { arbitrary: fields, weight: 6 },
    { arbitrary: withUnknownKeys, weight: 1 },
    { arbitrary: fc.constant({}), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Bodies

interface Body {
  contentType?: string;
  payload?: string | Buffer;
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'text/csv',
  'application/x-www-form-urlencoded',
  'application/json',
  'garbage',
];

function formEncoded(value: unknown): string {
  if (typeof value !== 'object' || value === null) return percentEncode(String(value));
  const pairs = Object.entries(value).flatMap(([name, item]) =>
    (Array.isArray(item) ? item : [item]).map((entry) => [
      name,
      typeof entry === 'string' ? entry : JSON.stringify(entry),
    ]),
  );
  return pairs.map(([name, item]) => `${percentEncode(name)}=${percentEncode(item ?? '')}`).join('&');
}

const CSV_HEADER = 'date,symbol,side,quantity,price,fees,note';
const CSV_VALID_CELLS = ['2025-01-06', 'AAPL', 'buy', '1', '100', '0', 'note'];
const CSV_HOSTILE_CELLS = [...NUMBER_TEXTS, '"', '"open', 'a"b', '"x""y"', '"a,b"', '\u0000'];

const csvCell = (column: number, hostile: boolean) =>
  hostile
    ? fc.oneof(
        { arbitrary: fc.constant(CSV_VALID_CELLS[column]), weight: 5 },
        { arbitrary: fc.constantFrom(...CSV_HOSTILE_CELLS), weight: 1 },
        { arbitrary: hostileString, weight: 1 },
      )
    : fc.constant(CSV_VALID_CELLS[column]);

const csvText = (hostile: boolean): fc.Arbitrary<string> =>
  fc
    .tuple(
      hostile
        ? fc.oneof(fc.constant(CSV_HEADER), fc.constant('date,symbol,side,quantity,price'), hostileString)
        : fc.constant(CSV_HEADER),
      fc.array(fc.tuple(...CSV_VALID_CELLS.map((_cell, column) => csvCell(column, hostile))), {
        minLength: hostile ? 0 : 1,
        maxLength: 5,
      }),
      fc.constantFrom('\n', '\r\n', '\r'),
    )
    .map(([header, rows, lineEnd]) => [header, ...rows.map((row) => row.join(','))].join(lineEnd));

const MALFORMED_FORM_PARTS = ['%', '%zz', '%E0%A4%A', '%00', '&&==&', 'a=%ff%fe', 'a=1&a=2', '=x'];

function serialized(contentType: string, value: unknown, hostile: boolean): fc.Arbitrary<Body> {
  if (contentType === 'text/csv') return csvText(hostile).map((payload) => ({ contentType, payload }));
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = formEncoded(value);
    if (!hostile) return fc.constant({ contentType, payload: form });
    return fc.oneof(
      { arbitrary: fc.constant({ contentType, payload: form }), weight: 4 },
      {
        arbitrary: fc
          .constantFrom(...MALFORMED_FORM_PARTS)
          .map((raw) => ({ contentType, payload: `${form}&${raw}` })),
        weight: 1,
      },
    );
  }
  const json = JSON.stringify(value);
  return fc.constant(json === undefined ? { contentType } : { contentType, payload: json });
}

/** Raw JSON that no serializer would write: duplicate keys, deep nesting, truncation, poisoning. */
function rawJson(schema: Schema): fc.Arbitrary<string> {
  const names = Object.keys(schema.properties ?? { x: {} });
  const text = (value: unknown) => JSON.stringify(value) ?? 'null';
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...names), hostileJson, validValue(schema, 0, false))
      .map(([name, hostile, valid]) => {
        const json = text(valid);
        const rest = json.startsWith('{') && json !== '{}' ? `,${json.slice(1, -1)}` : '';
        return `{${text(name)}:${text(hostile)}${rest},${text(name)}:${text(hostile)}}`;
      }),
    fc
      .tuple(fc.constantFrom(...names), fc.constantFrom(33, 5_000))
      .map(([name, depth]) => `{${text(name)}:${nestedArrays(depth)}}`),
    fc.constantFrom(nestedArrays(33), nestedArrays(15_000), nestedObjects(5_000), nestedObjects(33)),
    validValue(schema, 0, false).map((valid) => {
      const json = text(valid);
      return json.slice(0, Math.max(1, Math.floor(json.length / 2)));
    }),
    fc.constantFrom(
      '{"__proto__":{"is_superuser":true}}',
      '{"constructor":{"prototype":{"is_superuser":true}}}',
      '\ufeff{}',
      '   ',
      '',
      'null',
      '[]',
      '"text"',
      '1e999',
      'NaN',
      '{"a":1}garbage',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      `"${'x'.repeat(1_100_000)}"`,
    ),
  );
}

function bodyArbitrary(operation: Operation, hostile: boolean): fc.Arbitrary<Body> {
  const declared = Object.entries(operation.body);
  if (declared.length > 0 && !hostile) {
    return fc
      .constantFrom(...declared)
      .chain(([contentType, schema]) =>
        bodyValue(schema, false).chain((value) => serialized(contentType, value, false)),
      );
  }
  if (!hostile) return fc.constant({});
  const invalidUtf8 = (contentType: string) =>
    fc
      .tuple(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(0xff, 0xc3, 0xed, 0x80))
      .map(([bytes, bad]) => ({
        contentType,
        payload: Buffer.concat([Buffer.from('{"a":"'), bytes, Buffer.from([bad, 0x28]), Buffer.from('"}')]),
      }));
  const wrongType = fc
    .tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), hostileJson)
    .map(([contentType, value]) => ({ contentType, payload: JSON.stringify(value) ?? 'null' }));
  if (declared.length === 0) {
    return fc.oneof(
      { arbitrary: fc.constant({}), weight: 8 },
      { arbitrary: wrongType, weight: 2 },
      { arbitrary: invalidUtf8('application/json'), weight: 1 },
    );
  }
  const [jsonType, jsonSchema] = declared.find(([type]) => type === 'application/json') ?? declared[0];
  const structured = fc
    .constantFrom(...declared)
    .chain(([contentType, schema]) =>
      bodyValue(schema, true).chain((value) => serialized(contentType, value, true)),
    );
  return fc.oneof(
    { arbitrary: structured, weight: 8 },
    { arbitrary: rawJson(jsonSchema).map((payload) => ({ contentType: jsonType, payload })), weight: 3 },
    { arbitrary: invalidUtf8(jsonType), weight: 1 },
    { arbitrary: wrongType, weight: 1 },
    { arbitrary: fc.constant({}), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// URL and headers

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodes UTF-8 bytes; unlike encodeURIComponent it never throws (a lone surrogate becomes U+FFFD). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return byte < 0x80 && UNRESERVED.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** Written into the URL as they are: malformed escapes and traversal. */
const RAW_URL_PARTS = ['%', '%zz', '%E0%A4%A', '%00', '%ff', '%2F', '..', '%2e%2e', '+', '%20', 'a%2Fb'];

const validText = (parameter: Parameter) => validValue(parameter.schema ?? {}, 0, false).map(String);

function encodedParameter(parameter: Parameter, hostile: boolean): fc.Arbitrary<string> {
  if (!hostile) return validText(parameter).map(percentEncode);
  const text = fc.oneof(
    { arbitrary: validText(parameter), weight: 4 },
    { arbitrary: fc.constantFrom(...NUMBER_TEXTS), weight: 2 },
    { arbitrary: hostileString, weight: 2 },
    { arbitrary: fc.constant('A'.repeat(101)), weight: 1 },
  );
  return fc.oneof(
    { arbitrary: text.map(percentEncode), weight: 6 },
    { arbitrary: fc.constantFrom(...RAW_URL_PARTS), weight: 1 },
  );
}

const printable = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
  });

function authorizationArbitrary(context: RequestContext, hostile: boolean): fc.Arbitrary<string | undefined> {
  if (!hostile) return fc.constant(context.authorization ?? undefined);
  const wrong = fc.oneof(
    fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==', 'Bearer null'),
    fc.constantFrom(...context.wrongAuthorizations),
    printable(80).map((text) => `Bearer ${text}`),
  );
  return context.authorization
    ? fc.oneof({ arbitrary: fc.constant(context.authorization), weight: 12 }, { arbitrary: wrong, weight: 1 })
    : fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: wrong, weight: 1 });
}

/** Requests for one operation: a quarter entirely valid, the rest with hostile parts anywhere. */
export function requestArbitrary(operation: Operation, context: RequestContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: requestsOf(operation, context, false), weight: 1 },
    { arbitrary: requestsOf(operation, context, true), weight: 3 },
  );
}

function requestsOf(
  operation: Operation,
  context: RequestContext,
  hostile: boolean,
): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === 'header');

  const path = fc
    .tuple(...pathParameters.map((parameter) => encodedParameter(parameter, hostile)))
    .map((values) =>
      pathParameters.reduce((template, parameter, index) => {
        const value = context.pathValue ? context.pathValue(parameter.name, values[index]) : values[index];
        return template.replace(`{${parameter.name}}`, value);
      }, operation.path),
    );
  const none = fc.constant([] as string[]);
  const queryValue = (parameter: Parameter) => {
    const once = encodedParameter(parameter, hostile).map((value) => [`${parameter.name}=${value}`]);
    if (!hostile) return fc.oneof(none, once);
    const twice = fc
      .tuple(encodedParameter(parameter, true), encodedParameter(parameter, true))
      .map(([a, b]) => [`${parameter.name}=${a}`, `${parameter.name}=${b}`]);
    return fc.oneof(
      { arbitrary: none, weight: 2 },
      { arbitrary: once, weight: 5 },
      { arbitrary: twice, weight: 1 },
    );
  };
  const unknownParameter = hostile
    ? fc.oneof(
        { arbitrary: none, weight: 6 },
        {
          arbitrary: fc
            .tuple(hostileString, hostileString)
            .map(([name, value]) => [`${percentEncode(name)}=${percentEncode(value)}`]),
          weight: 1,
        },
      )
    : none;
  const query = fc
    .tuple(...queryParameters.map(queryValue), unknownParameter)
    .map((parts) => parts.flat().join('&'));
  const headers = fc.record({
    authorization: authorizationArbitrary(context, hostile),
    requestId: hostile ? fc.option(printable(200), { nil: undefined, freq: 6 }) : fc.constant(undefined),
    declared: fc.tuple(
      ...headerParameters.map(() =>
        hostile ? fc.option(printable(100), { nil: undefined }) : printable(20),
      ),
    ),
  });

  return fc
    .tuple(path, query, headers, bodyArbitrary(operation, hostile))
    .map(([url, search, header, body]) => {
      const requestHeaders: Record<string, string> = {};
      if (header.authorization !== undefined) requestHeaders.authorization = header.authorization;
      if (header.requestId !== undefined) requestHeaders['x-request-id'] = header.requestId;
      headerParameters.forEach((parameter, index) => {
        const value = header.declared[index];
        if (value !== undefined) requestHeaders[parameter.name.toLowerCase()] = value;
      });
      if (body.contentType !== undefined) requestHeaders['content-type'] = body.contentType;
      return new FuzzRequest(
        operation.method,
        search ? `${url}?${search}` : url,
        requestHeaders,
        body.payload,
      );
    });
}
