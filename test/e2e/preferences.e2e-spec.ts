import type { Schemas } from '../../client';
import { DataSource } from 'typeorm';
import { defaultsForLevel, levelDefaults } from '../../src/modules/preferences/level-defaults';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, InjectOptions, TestApp } from '../setup/test-app';
import { FakeClock } from '../fakes/clock';
import { dataOf, issuesOf, typedApi } from '../support/typed-api';

const BASE = '/api/v1/preferences';
const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const INVALID_LEVEL = 'Invalid experience level. Must be: beginner, intermediate, or advanced';

const BEGINNER_DEFAULTS = {
  experience_level: 'beginner',
  investment_style: 'long-term',
  risk_tolerance: 'conservative',
  brokerage_platform: null,
  investment_types: ['stocks', 'etfs'],
  analysis_depth: 'simple',
  information_sources: [
    { type: 'news', priority: 1 },
    { type: 'earnings', priority: 2 },
    { type: 'analyst', priority: 3 },
  ],
  market_sectors: ['technology', 'healthcare', 'finance'],
  geographic_focus: 'us',
  daily_summary_time: 'evening',
  alert_frequency: 'daily',
  esg_importance: 'unsure',
  explanation_style: 'step-by-step',
  watchlist: [],
  privacy_level: 'full',
};

const FULL_BODY: Schemas['CreatePreferencesDto'] = {
  experience_level: 'intermediate',
  investment_style: 'swing',
  risk_tolerance: 'aggressive',
  brokerage_platform: 'interactive_brokers',
  investment_types: ['crypto', 'bonds'],
  analysis_depth: 'technical',
  information_sources: [
    { type: 'social', priority: 6 },
    { type: 'economic', priority: 1 },
  ],
  market_sectors: ['utilities', 'telecommunications'],
  geographic_focus: 'global',
  daily_summary_time: 'convenient',
  alert_frequency: 'hourly',
  esg_importance: 'very',
  explanation_style: 'bottom-line-first',
  watchlist: ['AAPL', 'BRKB', 'T'],
  privacy_level: 'minimal',
};

// The preference rules (level defaults, the wizard, get-or-create, the watchlist, one record per
// user) are checked without HTTP in test/medium/preferences.medium-spec.ts.
describe('preferences over HTTP (spec 4.5)', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp({ clock });
    alice = await registerUser(testApp);
  });
  afterAll(() => testApp.close());

  beforeEach(async () => {
    await testApp.app.get(DataSource).query('DELETE FROM user_preferences');
  });

  const api = (user: TestUser) => typedApi(testApp, user);
  const create = (user: TestUser, body: Schemas['CreatePreferencesDto']) =>
    api(user).POST('/api/v1/preferences', { body });
  const read = (user: TestUser) => api(user).GET('/api/v1/preferences');
  const defaults = (user: TestUser, level: Schemas['ExperienceLevel']) =>
    api(user).GET('/api/v1/preferences/defaults/{experience_level}', {
      params: { path: { experience_level: level } },
    });
  // Raw: bodies and paths the types refuse (unknown, missing, null or mistyped fields, levels outside
  // the enum), the spec's spelling with the trailing slash, and the wire itself.
  const as = (user: TestUser, options: InjectOptions) =>
    testApp.inject({ ...options, headers: { ...user.headers, ...options.headers } });
  const post = (user: TestUser, payload: unknown) => as(user, { method: 'POST', url: `${BASE}/`, payload });
  const storedRows = () => testApp.app.get(DataSource).query('SELECT * FROM user_preferences ORDER BY id');

  describe('authentication', () => {
    it.each([
      ['GET', `${BASE}/`],
      ['POST', `${BASE}/`],
      ['PUT', `${BASE}/`],
      ['DELETE', `${BASE}/`],
      ['GET', `${BASE}/defaults/beginner`],
      ['GET', `${BASE}/choices`],
      ['POST', `${BASE}/wizard`],
      ['GET', `${BASE}/or-create/beginner`],
      ['PATCH', `${BASE}/watchlist`],
    ] as const)('%s %s answers 401 without a token and changes nothing', async (method, url) => {
      const response = await testApp.inject({ method, url, payload: method === 'PATCH' ? ['AAPL'] : {} });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Could not validate credentials' });
      expect(await storedRows()).toEqual([]);
    });

    it('answers 401 to a malformed token', async () => {
      const response = await testApp.inject({
        url: `${BASE}/`,
        headers: { authorization: 'Bearer not-a-jwt' },
      });

      expect(response.statusCode).toBe(401);
    });
  });

  describe('GET /preferences/', () => {
    it('answers 404 when the user has no record', async () => {
      const response = await read(alice);

      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'User preferences not found' });
    });

    it('answers the same with or without the trailing slash', async () => {
      await create(alice, { experience_level: 'beginner' });

      const withSlash = await as(alice, { url: `${BASE}/` });
      const withoutSlash = await as(alice, { url: BASE });

      expect(withSlash.statusCode).toBe(200);
      expect(withoutSlash.json()).toEqual(withSlash.json());
    });
  });

  describe('POST /preferences/', () => {
    it('creates from the level defaults when only experience_level is given', async () => {
      const response = await create(alice, { experience_level: 'beginner' });

      expect(response.response.status).toBe(201);
      const body = dataOf(response);
      expect(body).toEqual({
        id: expect.any(Number),
        user_id: alice.id,
        ...BEGINNER_DEFAULTS,
        onboarding_completed: false,
        onboarding_completed_at: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: body.created_at,
      });
      expect(dataOf(await read(alice))).toEqual(body);
    });

    it('stores every given field as sent, with watchlist symbols upper-cased', async () => {
      const response = await create(alice, { ...FULL_BODY, watchlist: ['aapl', 'BrkB', 't'] });

      expect(response.response.status).toBe(201);
      expect(response.data).toMatchObject(FULL_BODY);
      expect(dataOf(await read(alice))).toMatchObject(FULL_BODY);
    });

    it('ignores unknown fields', async () => {
      const response = await post(alice, {
        experience_level: 'beginner',
        favourite_colour: 'green',
        id: 999,
      });

      expect(response.statusCode).toBe(201);
      expect(response.json()).not.toHaveProperty('favourite_colour');
      expect(response.json().id).not.toBe(999);
    });

    it('answers 409 when a record exists and leaves it unchanged', async () => {
      const first = dataOf(await create(alice, { experience_level: 'beginner' }));

      const second = await create(alice, { ...FULL_BODY });

      expect(second.response.status).toBe(409);
      expect(second.error).toEqual({ detail: 'User preferences already exist' });
      expect(dataOf(await read(alice))).toEqual(first);
    });

    it('requires experience_level', async () => {
      const response = await post(alice, { risk_tolerance: 'moderate' });

      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [{ loc: ['body', 'experience_level'], msg: 'Field required', type: 'missing' }],
      });
    });

    it('points a bad information source priority at its element', async () => {
      const response = await create(alice, {
        experience_level: 'beginner',
        information_sources: [
          { type: 'news', priority: 1 },
          { type: 'earnings', priority: 2 },
          { type: 'analyst', priority: 7 },
        ],
      });

      expect(response.response.status).toBe(422);
      expect(response.error).toEqual({
        detail: [
          {
            loc: ['body', 'information_sources', 2, 'priority'],
            msg: 'Input should be less than or equal to 6',
            type: 'less_than_equal',
            ctx: { le: 6 },
          },
        ],
      });
    });

    it('points repeated information source types and priorities at the repeating element', async () => {
      const response = await create(alice, {
        experience_level: 'beginner',
        information_sources: [
          { type: 'news', priority: 1 },
          { type: 'earnings', priority: 1 },
          { type: 'news', priority: 3 },
        ],
      });

      expect(response.response.status).toBe(422);
      expect(issuesOf(response).map((issue) => issue.loc)).toEqual([
        ['body', 'information_sources', 1, 'priority'],
        ['body', 'information_sources', 2, 'type'],
      ]);
      expect(await storedRows()).toEqual([]);
    });

    it.each([
      ['an unknown enumeration value', { risk_tolerance: 'reckless' }, ['body', 'risk_tolerance'], 'enum'],
      ['null for a field that cannot be null', { esg_importance: null }, ['body', 'esg_importance'], 'enum'],
      ['an unknown brokerage', { brokerage_platform: 'etoro' }, ['body', 'brokerage_platform'], 'enum'],
      [
        'a string where a list is expected',
        { investment_types: 'stocks' },
        ['body', 'investment_types'],
        'list_type',
      ],
      [
        'an unknown sector in a list',
        { market_sectors: ['technology', 'space'] },
        ['body', 'market_sectors', 1],
        'enum',
      ],
      [
        'a priority that is not an integer',
        { information_sources: [{ type: 'news', priority: 1.5 }] },
        ['body', 'information_sources', 0, 'priority'],
        'int_from_float',
      ],
      [
        'an unknown information source type',
        { information_sources: [{ type: 'rumours', priority: 1 }] },
        ['body', 'information_sources', 0, 'type'],
        'enum',
      ],
      [
        'a priority below 1',
        { information_sources: [{ type: 'news', priority: 0 }] },
        ['body', 'information_sources', 0, 'priority'],
        'greater_than_equal',
      ],
      [
        'a source that is not an object',
        { information_sources: ['news'] },
        ['body', 'information_sources', 0],
        'model_attributes_type',
      ],
      [
        'a ticker of 6 letters',
        { watchlist: ['TOOLNG'] },
        ['body', 'watchlist', 0],
        'string_pattern_mismatch',
      ],
      ['a ticker with a digit', { watchlist: ['AB1'] }, ['body', 'watchlist', 0], 'string_pattern_mismatch'],
      ['a ticker that is not a string', { watchlist: [12] }, ['body', 'watchlist', 0], 'string_type'],
      [
        'duplicate tickers after upper-casing',
        { watchlist: ['aapl', 'AAPL'] },
        ['body', 'watchlist'],
        'value_error',
      ],
    ])('rejects %s with 422 at the field and stores nothing', async (_case, fields, loc, type) => {
      const response = await post(alice, { experience_level: 'beginner', ...fields });

      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, type }));
      expect(await storedRows()).toEqual([]);
    });

    it('reports each bad list item at its index with the first rule it breaks, as Pydantic does', async () => {
      const response = await post(alice, {
        experience_level: 'beginner',
        investment_types: ['stocks', 'gold'],
        watchlist: ['aapl', 12, 'TOOLONG'],
      });

      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['body', 'investment_types', 1],
            msg: "Input should be 'stocks', 'etfs', 'mutual_funds', 'bonds', 'options', 'futures', 'crypto' or 'real_estate'",
            type: 'enum',
            ctx: {
              expected:
                "'stocks', 'etfs', 'mutual_funds', 'bonds', 'options', 'futures', 'crypto' or 'real_estate'",
            },
          },
          { loc: ['body', 'watchlist', 1], msg: 'Input should be a valid string', type: 'string_type' },
          {
            loc: ['body', 'watchlist', 2],
            msg: "String should match pattern '^[A-Za-z]{1,5}$'",
            type: 'string_pattern_mismatch',
            ctx: { pattern: '^[A-Za-z]{1,5}$' },
          },
        ],
      });
      expect(await storedRows()).toEqual([]);
    });

    it('rejects 51 well-formed tickers as too long', async () => {
      const tickers = Array.from({ length: 51 }, (_, index) => letters(index));

      const response = await create(alice, { experience_level: 'beginner', watchlist: tickers });

      expect(response.error).toEqual({
        detail: [
          {
            loc: ['body', 'watchlist'],
            msg: 'List should have at most 50 items after validation, not 51',
            type: 'too_long',
            ctx: { field_type: 'List', max_length: 50, actual_length: 51 },
          },
        ],
      });
    });

    it('rejects a body that is not an object', async () => {
      const response = await post(alice, ['beginner']);

      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(['body']);
    });
  });

  describe('PUT /preferences/', () => {
    it('changes only the given fields, keeps created_at and refreshes updated_at', async () => {
      const created = dataOf(await create(alice, { experience_level: 'beginner', watchlist: ['MSFT'] }));
      clock.advance(60_000);

      const response = await api(alice).PUT('/api/v1/preferences', {
        body: { risk_tolerance: 'moderate', brokerage_platform: 'vanguard', watchlist: ['nvda'] },
      });

      expect(response.response.status).toBe(200);
      const updated = dataOf(response);
      expect(updated).toEqual({
        ...created,
        risk_tolerance: 'moderate',
        brokerage_platform: 'vanguard',
        watchlist: ['NVDA'],
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expectLater(updated.updated_at, created.updated_at);
      expect(dataOf(await read(alice))).toEqual(updated);
    });

    it('answers 404 with its own detail when the user has no record', async () => {
      const response = await api(alice).PUT('/api/v1/preferences', { body: { risk_tolerance: 'moderate' } });

      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'User preferences not found to update' });
      expect(await storedRows()).toEqual([]);
    });

    it('answers 422 for an invalid field and leaves the record unchanged', async () => {
      const created = dataOf(await create(alice, { experience_level: 'beginner' }));

      const response = await as(alice, {
        method: 'PUT',
        url: `${BASE}/`,
        payload: { risk_tolerance: 'moderate', experience_level: null },
      });

      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        expect.objectContaining({ loc: ['body', 'experience_level'], type: 'enum' }),
      ]);
      expect(dataOf(await read(alice))).toEqual(created);
    });
  });

  describe('DELETE /preferences/', () => {
    it('answers 204 with no body and removes the record', async () => {
      await create(alice, { experience_level: 'beginner' });

      const response = await as(alice, { method: 'DELETE', url: `${BASE}/` });

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await read(alice)).response.status).toBe(404);
    });
  });

  describe('GET /preferences/defaults/{experience_level}', () => {
    it('gives exactly the beginner table of the spec: no id, user_id, timestamps or level', async () => {
      const response = await defaults(alice, 'beginner');

      expect(response.response.status).toBe(200);
      const { experience_level: _level, ...fields } = BEGINNER_DEFAULTS;
      expect(response.data).toEqual(fields);
    });

    it.each(['intermediate', 'advanced'] as const)('gives the %s defaults of the table', async (level) => {
      const response = await defaults(alice, level);

      expect(response.response.status).toBe(200);
      expect(response.data).toEqual(levelDefaults(level));
    });

    it('gives the spec values for intermediate and advanced where the spec names them', async () => {
      const intermediate = dataOf(await defaults(alice, 'intermediate'));
      const advanced = dataOf(await defaults(alice, 'advanced'));

      expect(intermediate).toMatchObject({
        risk_tolerance: 'moderate',
        analysis_depth: 'detailed',
        investment_types: ['stocks', 'etfs', 'options'],
        alert_frequency: 'daily',
        explanation_style: 'key-points',
      });
      expect(advanced).toMatchObject({
        risk_tolerance: 'aggressive',
        analysis_depth: 'technical',
        alert_frequency: 'real-time',
        explanation_style: 'bottom-line-first',
      });
      expect(advanced.investment_types).toEqual(expect.arrayContaining(['futures', 'crypto']));
    });

    it.each(['expert', 'Beginner', 'beginner ', '1'])('answers 400 for the level %j', async (level) => {
      const response = await as(alice, { url: `${BASE}/defaults/${encodeURIComponent(level)}` });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: INVALID_LEVEL });
    });
  });

  describe('GET /preferences/choices', () => {
    it('lists the allowed values of every enumeration, under the keys of the spec', async () => {
      const response = await api(alice).GET('/api/v1/preferences/choices');

      expect(response.response.status).toBe(200);
      expect(response.data).toEqual({
        experience_level: ['beginner', 'intermediate', 'advanced'],
        investment_style: ['long-term', 'active', 'swing', 'day'],
        risk_tolerance: ['conservative', 'moderate', 'aggressive'],
        investment_types: [
          'stocks',
          'etfs',
          'mutual_funds',
          'bonds',
          'options',
          'futures',
          'crypto',
          'real_estate',
        ],
        analysis_depth: ['simple', 'detailed', 'technical'],
        market_sectors: [
          'technology',
          'healthcare',
          'finance',
          'energy',
          'consumer_discretionary',
          'consumer_staples',
          'industrials',
          'materials',
          'utilities',
          'real_estate',
          'telecommunications',
        ],
        geographic_focus: ['us', 'us-international', 'global'],
        daily_summary_time: ['morning', 'lunch', 'evening', 'night', 'convenient'],
        alert_frequency: ['real-time', 'hourly', 'daily', 'weekly'],
        esg_importance: ['very', 'somewhat', 'not', 'unsure'],
        explanation_style: ['step-by-step', 'key-points', 'bottom-line-first'],
        privacy_level: ['full', 'limited', 'minimal'],
        information_source_types: ['earnings', 'news', 'analyst', 'social', 'technical', 'economic'],
        brokerage_platforms: [
          'robinhood',
          'fidelity',
          'charles_schwab',
          'td_ameritrade',
          'e_trade',
          'interactive_brokers',
          'webull',
          'vanguard',
          'merrill_edge',
          'other',
        ],
      });
    });

    it('offers only values that POST accepts', async () => {
      const choices = dataOf(await api(alice).GET('/api/v1/preferences/choices'));
      const last = (values: string[]) => values[values.length - 1];

      // Raw: the answer's lists are plain strings to the types, so a body built from them is too.
      const response = await post(alice, {
        experience_level: last(choices.experience_level),
        investment_style: last(choices.investment_style),
        risk_tolerance: last(choices.risk_tolerance),
        brokerage_platform: last(choices.brokerage_platforms),
        investment_types: choices.investment_types,
        analysis_depth: last(choices.analysis_depth),
        information_sources: choices.information_source_types.map((type: string, index: number) => ({
          type,
          priority: index + 1,
        })),
        market_sectors: choices.market_sectors,
        geographic_focus: last(choices.geographic_focus),
        daily_summary_time: last(choices.daily_summary_time),
        alert_frequency: last(choices.alert_frequency),
        esg_importance: last(choices.esg_importance),
        explanation_style: last(choices.explanation_style),
        privacy_level: last(choices.privacy_level),
      });

      expect(response.statusCode).toBe(201);
    });
  });

  describe('POST /preferences/wizard', () => {
    const wizard = (user: TestUser, payload: unknown) =>
      as(user, { method: 'POST', url: `${BASE}/wizard`, payload });
    const applySteps = (user: TestUser, body: Schemas['WizardRequestDto']) =>
      api(user).POST('/api/v1/preferences/wizard', { body });

    it('creates a record from the defaults of the essential step level, then applies every step', async () => {
      const response = await applySteps(alice, {
        step_data: {
          essential: {
            experience_level: 'intermediate',
            investment_style: 'day',
            risk_tolerance: 'aggressive',
          },
          portfolio: { investment_types: ['stocks'], brokerage_platform: 'robinhood', watchlist: ['amd'] },
          information: {
            analysis_depth: 'simple',
            information_sources: [{ type: 'social', priority: 1 }],
            market_sectors: ['energy'],
            geographic_focus: 'us',
          },
          communication: { daily_summary_time: 'lunch', alert_frequency: 'weekly' },
          advanced: { esg_importance: 'not', explanation_style: 'step-by-step', privacy_level: 'limited' },
        },
        complete: false,
      });

      expect(response.response.status).toBe(200);
      const body = dataOf(response);
      expect(body).toEqual({
        id: expect.any(Number),
        user_id: alice.id,
        experience_level: 'intermediate',
        investment_style: 'day',
        risk_tolerance: 'aggressive',
        brokerage_platform: 'robinhood',
        investment_types: ['stocks'],
        analysis_depth: 'simple',
        information_sources: [{ type: 'social', priority: 1 }],
        market_sectors: ['energy'],
        geographic_focus: 'us',
        daily_summary_time: 'lunch',
        alert_frequency: 'weekly',
        esg_importance: 'not',
        explanation_style: 'step-by-step',
        watchlist: ['AMD'],
        privacy_level: 'limited',
        onboarding_completed: false,
        onboarding_completed_at: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(dataOf(await read(alice))).toEqual(body);
    });

    it('rejects an unknown step at its loc and creates nothing', async () => {
      const response = await wizard(alice, { step_data: { essentials: { experience_level: 'advanced' } } });

      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['body', 'step_data', 'essentials'],
            msg: 'Extra inputs are not permitted',
            type: 'extra_forbidden',
          },
        ],
      });
      expect(await storedRows()).toEqual([]);
    });

    it('rejects a field sent in a step it does not belong to, at its loc', async () => {
      const response = await wizard(alice, {
        step_data: {
          essential: { experience_level: 'advanced', watchlist: ['AAPL'] },
          advanced: { nickname: 'x' },
        },
      });

      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        {
          loc: ['body', 'step_data', 'essential', 'watchlist'],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
        },
        {
          loc: ['body', 'step_data', 'advanced', 'nickname'],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
        },
      ]);
    });

    it('validates step fields like any body, with the loc inside the step', async () => {
      const response = await wizard(alice, {
        step_data: {
          essential: { risk_tolerance: 'yolo' },
          information: {
            information_sources: [
              { type: 'news', priority: 1 },
              { type: 'analyst', priority: 1 },
            ],
          },
        },
      });

      expect(response.statusCode).toBe(422);
      const locs = response.json().detail.map((issue: { loc: unknown[] }) => issue.loc);
      expect(locs).toEqual([['body', 'step_data', 'essential', 'risk_tolerance']]);
    });

    it('points repeated information sources at the element inside the information step', async () => {
      const response = await applySteps(alice, {
        step_data: {
          information: {
            information_sources: [
              { type: 'news', priority: 1 },
              { type: 'analyst', priority: 1 },
            ],
          },
        },
      });

      expect(response.response.status).toBe(422);
      expect(issuesOf(response)).toEqual([
        expect.objectContaining({
          loc: ['body', 'step_data', 'information', 'information_sources', 1, 'priority'],
          type: 'value_error',
        }),
      ]);
    });

    it.each([
      ['no step_data', { complete: true }, ['body', 'step_data'], 'missing'],
      [
        'step_data that is not an object',
        { step_data: ['essential'] },
        ['body', 'step_data'],
        'model_attributes_type',
      ],
      [
        'a step that is not an object',
        { step_data: { essential: 'beginner' } },
        ['body', 'step_data', 'essential'],
        'model_attributes_type',
      ],
      [
        'complete that is not a boolean',
        { step_data: {}, complete: 'yes' },
        ['body', 'complete'],
        'bool_parsing',
      ],
    ])('rejects %s with 422', async (_case, payload, loc, type) => {
      const response = await wizard(alice, payload);

      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, type }));
      expect(await storedRows()).toEqual([]);
    });
  });

  describe('GET /preferences/or-create/{experience_level}', () => {
    it('creates a record from the level defaults and answers 200', async () => {
      const response = await api(alice).GET('/api/v1/preferences/or-create/{experience_level}', {
        params: { path: { experience_level: 'intermediate' } },
      });

      expect(response.response.status).toBe(200);
      expect(response.data).toEqual({
        id: expect.any(Number),
        user_id: alice.id,
        ...defaultsForLevel('intermediate'),
        onboarding_completed: false,
        onboarding_completed_at: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(await storedRows()).toHaveLength(1);
    });

    it('answers 400 with the defaults message for another level and creates nothing', async () => {
      const response = await as(alice, { url: `${BASE}/or-create/guru` });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: INVALID_LEVEL });
      expect(await storedRows()).toEqual([]);
    });
  });

  describe('PATCH /preferences/watchlist', () => {
    const patchWatchlist = (user: TestUser, body: string[]) =>
      api(user).PATCH('/api/v1/preferences/watchlist', { body });

    it('replaces the watchlist with the symbols upper-cased and refreshes updated_at', async () => {
      const created = dataOf(await create(alice, { experience_level: 'beginner', watchlist: ['IBM'] }));
      clock.advance(60_000);

      const response = await patchWatchlist(alice, ['aapl', 'Msft', 'T']);

      expect(response.response.status).toBe(200);
      expect(response.data).toEqual({
        ...created,
        watchlist: ['AAPL', 'MSFT', 'T'],
        updated_at: expect.any(String),
      });
      expectLater(dataOf(response).updated_at, created.updated_at!);
      expect(dataOf(await read(alice)).watchlist).toEqual(['AAPL', 'MSFT', 'T']);
    });

    it.each([
      [
        '51 symbols',
        Array.from({ length: 51 }, (_, index) => letters(index)),
        'Watchlist cannot exceed 50 symbols',
      ],
    ])('answers 400 for %s with the spec detail and keeps the old list', async (_case, symbols, detail) => {
      await create(alice, { experience_level: 'beginner', watchlist: ['IBM'] });

      const response = await patchWatchlist(alice, symbols);

      expect(response.response.status).toBe(400);
      expect(response.error).toEqual({ detail });
      expect(dataOf(await read(alice)).watchlist).toEqual(['IBM']);
    });

    it('answers 404 when the user has no record', async () => {
      const response = await patchWatchlist(alice, ['AAPL']);

      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'User preferences not found' });
    });

    it('answers 422 when the body is not a JSON array', async () => {
      await create(alice, { experience_level: 'beginner' });

      // Raw: an object where the body's type is a list.
      const response = await as(alice, {
        method: 'PATCH',
        url: `${BASE}/watchlist`,
        payload: { watchlist: ['AAPL'] },
      });

      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [{ loc: ['body'], msg: 'Input should be a valid list', type: 'list_type' }],
      });
    });
  });
});

function expectLater(timestamp: string, than: string): void {
  expect(Date.parse(timestamp)).toBeGreaterThan(Date.parse(than));
}

/** A distinct valid ticker for each index (AA, AB, ..., BA, ...). */
function letters(index: number): string {
  return String.fromCharCode(65 + Math.floor(index / 26)) + String.fromCharCode(65 + (index % 26));
}
