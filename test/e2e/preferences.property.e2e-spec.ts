import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { defaultsForLevel } from '../../src/modules/preferences/level-defaults';
import {
  ALERT_FREQUENCIES,
  ANALYSIS_DEPTHS,
  BROKERAGE_PLATFORMS,
  DAILY_SUMMARY_TIMES,
  ESG_IMPORTANCES,
  EXPERIENCE_LEVELS,
  ExperienceLevel,
  EXPLANATION_STYLES,
  GEOGRAPHIC_FOCUSES,
  INFORMATION_SOURCE_TYPES,
  INVESTMENT_STYLES,
  INVESTMENT_TYPES,
  MARKET_SECTORS,
  PRIVACY_LEVELS,
  RISK_TOLERANCES,
} from '../../src/modules/preferences/preference-values';
import { WIZARD_STEP_FIELDS } from '../../src/modules/preferences/wizard-steps';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

type Body = Record<string, unknown>;

const BASE = '/api/v1/preferences';
const RUNS = 40;
const PROPERTY_TIMEOUT_MS = 180_000;

const PRIORITIES = [1, 2, 3, 4, 5, 6];
const ticker = fc.stringMatching(/^[A-Za-z]{1,5}$/);

/** Distinct types paired with distinct priorities from 1 to 6, in any order. */
const validInformationSources = fc
  .shuffledSubarray([...INFORMATION_SOURCE_TYPES])
  .chain((types) =>
    fc
      .shuffledSubarray(PRIORITIES, { minLength: types.length, maxLength: types.length })
      .map((priorities) => types.map((type, index) => ({ type, priority: priorities[index] }))),
  );

const validField: Record<string, fc.Arbitrary<unknown>> = {
  experience_level: fc.constantFrom(...EXPERIENCE_LEVELS),
  investment_style: fc.constantFrom(...INVESTMENT_STYLES),
  risk_tolerance: fc.constantFrom(...RISK_TOLERANCES),
  brokerage_platform: fc.constantFrom(...BROKERAGE_PLATFORMS, null),
  investment_types: fc.shuffledSubarray([...INVESTMENT_TYPES]),
  analysis_depth: fc.constantFrom(...ANALYSIS_DEPTHS),
  information_sources: validInformationSources,
  market_sectors: fc.shuffledSubarray([...MARKET_SECTORS]),
  geographic_focus: fc.constantFrom(...GEOGRAPHIC_FOCUSES),
  daily_summary_time: fc.constantFrom(...DAILY_SUMMARY_TIMES),
  alert_frequency: fc.constantFrom(...ALERT_FREQUENCIES),
  esg_importance: fc.constantFrom(...ESG_IMPORTANCES),
  explanation_style: fc.constantFrom(...EXPLANATION_STYLES),
  watchlist: fc.uniqueArray(ticker, { maxLength: 50, selector: (symbol) => symbol.toUpperCase() }),
  privacy_level: fc.constantFrom(...PRIVACY_LEVELS),
};
const FIELD_NAMES = Object.keys(validField);

const validCreateBody = fc.record(validField, { requiredKeys: ['experience_level'] });
const validUpdateBody = fc.record(validField, { requiredKeys: [] });
const validStepData = fc.record(
  Object.fromEntries(
    Object.entries(WIZARD_STEP_FIELDS).map(([step, fields]) => [
      step,
      fc.record(Object.fromEntries(fields.map((field) => [field, validField[field]])), { requiredKeys: [] }),
    ]),
  ),
  { requiredKeys: [] },
);

/** Values that are never a valid anything: wrong JSON types. */
const wrongType = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);

function invalidChoice(allowed: readonly string[], nullable: boolean): fc.Arbitrary<unknown> {
  const outside = fc.string().filter((value) => !allowed.includes(value));
  return nullable
    ? fc.oneof(outside, wrongType, fc.array(fc.constantFrom(...allowed), { minLength: 1, maxLength: 2 }))
    : fc.oneof(
        outside,
        wrongType,
        fc.constant(null),
        fc.array(fc.constantFrom(...allowed), { maxLength: 2 }),
      );
}

function invalidSet(allowed: readonly string[]): fc.Arbitrary<unknown> {
  const valid = fc.constantFrom(...allowed);
  return fc.oneof(
    fc.constantFrom(...allowed),
    wrongType,
    fc.constant(null),
    fc
      .tuple(fc.array(valid, { maxLength: 3 }), fc.oneof(fc.string(), wrongType))
      .map(([good, bad]) => (allowed.includes(bad as string) ? [...good, 'not-a-choice'] : [...good, bad])),
    valid.map((value) => [value, value]),
  );
}

const invalidInformationSources = fc.oneof(
  wrongType,
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
  fc
    .record({
      type: fc.oneof(
        fc.string().filter((value) => !(INFORMATION_SOURCE_TYPES as readonly string[]).includes(value)),
        wrongType,
      ),
      priority: fc.constantFrom(...PRIORITIES),
    })
    .map((source) => [source]),
  fc
    .record({
      type: fc.constantFrom(...INFORMATION_SOURCE_TYPES),
      priority: fc.oneof(
        fc.integer().filter((value) => value < 1 || value > 6),
        fc.double({ min: 1.01, max: 5.99, noNaN: true }),
        fc.string(),
        fc.constant(null),
      ),
    })
    .map((source) => [source]),
  fc.constantFrom(...INFORMATION_SOURCE_TYPES).map((type) => [
    { type, priority: 1 },
    { type, priority: 2 },
  ]),
  fc
    .tuple(
      fc.shuffledSubarray([...INFORMATION_SOURCE_TYPES], { minLength: 2, maxLength: 2 }),
      fc.constantFrom(...PRIORITIES),
    )
    .map(([[first, second], priority]) => [
      { type: first, priority },
      { type: second, priority },
    ]),
);

const invalidWatchlist = fc.oneof(
  wrongType,
  fc.constant(null),
  fc.string(),
  fc.uniqueArray(ticker, { minLength: 51, maxLength: 60, selector: (symbol) => symbol.toUpperCase() }),
  fc
    .tuple(
      fc.array(ticker, { maxLength: 3 }),
      fc.oneof(
        fc.string().filter((value) => !/^[A-Za-z]{1,5}$/.test(value)),
        wrongType,
      ),
    )
    .map(([good, bad]) => [...new Set(good.map((symbol) => symbol.toUpperCase()))].concat(bad as string)),
  ticker.map((symbol) => [symbol.toLowerCase(), symbol.toUpperCase()]),
);

const invalidField: Record<string, fc.Arbitrary<unknown>> = {
  experience_level: invalidChoice(EXPERIENCE_LEVELS, false),
  investment_style: invalidChoice(INVESTMENT_STYLES, false),
  risk_tolerance: invalidChoice(RISK_TOLERANCES, false),
  brokerage_platform: invalidChoice(BROKERAGE_PLATFORMS, true),
  investment_types: invalidSet(INVESTMENT_TYPES),
  analysis_depth: invalidChoice(ANALYSIS_DEPTHS, false),
  information_sources: invalidInformationSources,
  market_sectors: invalidSet(MARKET_SECTORS),
  geographic_focus: invalidChoice(GEOGRAPHIC_FOCUSES, false),
  daily_summary_time: invalidChoice(DAILY_SUMMARY_TIMES, false),
  alert_frequency: invalidChoice(ALERT_FREQUENCIES, false),
  esg_importance: invalidChoice(ESG_IMPORTANCES, false),
  explanation_style: invalidChoice(EXPLANATION_STYLES, false),
  watchlist: invalidWatchlist,
  privacy_level: invalidChoice(PRIVACY_LEVELS, false),
};

/** A valid create body with exactly one field replaced by an invalid value. */
const corruptedCreateBody = fc
  .tuple(validCreateBody, fc.constantFrom(...FIELD_NAMES))
  .chain(([body, field]) =>
    invalidField[field].map((value) => ({ field, body: { ...body, [field]: value } })),
  );

describe('preferences validators (property-based)', () => {
  let testApp: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    user = await registerUser(testApp);
  });
  afterAll(() => testApp.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    testApp.inject({
      method,
      url: `${BASE}${path}`,
      headers: { ...user.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const storedRecord = async () => (await send('GET', '/')).json();
  const clearRecord = () =>
    testApp.app.get(DataSource).query('DELETE FROM user_preferences WHERE user_id = $1', [user.id]);

  it(
    'round-trips any accepted create body unchanged through POST then GET, absent fields from the level defaults',
    async () => {
      await fc.assert(
        fc.asyncProperty(validCreateBody, async (body) => {
          await clearRecord();

          const created = await send('POST', '/', body);

          expect(created.statusCode).toBe(201);
          const expected = {
            ...defaultsForLevel(body.experience_level as ExperienceLevel),
            ...normalised(body),
          };
          expect(pickFields(created.json())).toEqual(expected);
          expect(pickFields(await storedRecord())).toEqual(expected);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'applies any accepted update body field by field and keeps the fields it leaves out',
    async () => {
      await clearRecord();
      await send('POST', '/', { experience_level: 'beginner' });

      await fc.assert(
        fc.asyncProperty(validUpdateBody, async (body) => {
          const before = pickFields(await storedRecord());

          const updated = await send('PUT', '/', body);

          expect(updated.statusCode).toBe(200);
          expect(pickFields(await storedRecord())).toEqual({ ...before, ...normalised(body) });
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'applies any accepted wizard step data like the equivalent update',
    async () => {
      await clearRecord();
      await send('POST', '/', { experience_level: 'advanced' });

      await fc.assert(
        fc.asyncProperty(validStepData, fc.boolean(), async (stepData, complete) => {
          const before = pickFields(await storedRecord());
          const merged = Object.assign({}, ...Object.values(stepData as Record<string, Body>));

          const response = await send('POST', '/wizard', { step_data: stepData, complete });

          expect(response.statusCode).toBe(200);
          expect(pickFields(await storedRecord())).toEqual({ ...before, ...normalised(merged) });
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'rejects any body with one invalid field with 422 at that field, and stores nothing',
    async () => {
      await clearRecord();

      await fc.assert(
        fc.asyncProperty(corruptedCreateBody, async ({ field, body }) => {
          const response = await send('POST', '/', body);

          expect(response.statusCode).toBe(422);
          const issues: { loc: unknown[]; msg: unknown; type: unknown }[] = response.json().detail;
          expect(issues.length).toBeGreaterThan(0);
          for (const issue of issues) {
            expect(issue).toEqual(
              expect.objectContaining({ msg: expect.any(String), type: expect.any(String) }),
            );
            expect(issue.loc.slice(0, 2)).toEqual(['body', field]);
          }
          expect((await send('GET', '/')).statusCode).toBe(404);
        }),
        { numRuns: RUNS * 3 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'rejects the same invalid fields in PUT with 422 and leaves the record unchanged',
    async () => {
      await clearRecord();
      const original = (await send('POST', '/', { experience_level: 'intermediate' })).json();

      await fc.assert(
        fc.asyncProperty(corruptedCreateBody, async ({ field, body }) => {
          const response = await send('PUT', '/', { [field]: body[field] });

          expect(response.statusCode).toBe(422);
          expect(response.json().detail[0].loc.slice(0, 2)).toEqual(['body', field]);
          expect(await storedRecord()).toEqual(original);
        }),
        { numRuns: RUNS * 2 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any JSON body on every writing endpoint with a 2xx or 4xx, never a 5xx',
    async () => {
      const endpoints = [
        ['POST', '/'],
        ['PUT', '/'],
        ['POST', '/wizard'],
        ['PATCH', '/watchlist'],
      ] as const;
      const stepShaped = fc.dictionary(
        fc.constantFrom(...Object.keys(WIZARD_STEP_FIELDS), 'other'),
        fc.dictionary(fc.constantFrom(...FIELD_NAMES, 'other'), fc.jsonValue(), { maxKeys: 4 }),
      );
      const anyBody = fc.oneof(
        fc.jsonValue(),
        fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.jsonValue()),
        fc.record({ step_data: stepShaped, complete: fc.jsonValue() }, { requiredKeys: [] }),
        fc.array(fc.oneof(ticker, fc.jsonValue()), { maxLength: 60 }),
      );

      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoints),
          anyBody,
          fc.boolean(),
          async ([method, path], body, hasRecord) => {
            await clearRecord();
            if (hasRecord) await send('POST', '/', { experience_level: 'beginner' });

            const response = await send(method, path, body);

            expect(response.statusCode).toBeLessThan(500);
            if (response.statusCode >= 400) expect(response.json()).toHaveProperty('detail');
          },
        ),
        { numRuns: RUNS * 3, examples: [[['POST', '/'], null, false]] },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

/** The stored form of a request body: watchlist symbols upper-cased. */
function normalised(body: Body): Body {
  const watchlist = body.watchlist as string[] | undefined;
  return watchlist ? { ...body, watchlist: watchlist.map((symbol) => symbol.toUpperCase()) } : body;
}

function pickFields(record: Body): Body {
  return Object.fromEntries(FIELD_NAMES.map((field) => [field, record[field]]));
}
