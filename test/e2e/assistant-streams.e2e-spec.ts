import { setTimeout as sleep } from 'node:timers/promises';
import { registerUser, TestUser } from '../factories/users.factory';
import { ANSWER_WITHIN_MS } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { FakeChatModel } from '../support/fake-chat-model';

const STREAMS_PER_USER = 2;
const STREAMS_TOTAL = 3;
/** How long a stream whose model never answers stays open before the turn falls back offline. */
const MODEL_TIMEOUT_MS = 2_000;

describe('open assistant chat streams are capped per user and in total (issue 29)', () => {
  const model = new FakeChatModel();
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({
      env: {
        AI_PROVIDER: 'openai',
        AI_BASE_URL: model.baseUrl,
        AI_TIMEOUT_MS: String(MODEL_TIMEOUT_MS),
        ASSISTANT_STREAMS_PER_USER: String(STREAMS_PER_USER),
        ASSISTANT_STREAMS_TOTAL: String(STREAMS_TOTAL),
      },
    });
    base = await sut.listen();
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const stream = (user: TestUser) =>
    fetch(`${base}/api/v1/assistant/chat`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'help' }),
      signal: AbortSignal.timeout(MODEL_TIMEOUT_MS + ANSWER_WITHIN_MS),
    });
  /**
   * Opens a stream and waits until its turn is waiting on the model, so the stream is surely open;
   * resolves to the whole stream's text once it ends.
   */
  const openStream = async (user: TestUser) => {
    const before = model.requests.length;
    const text = stream(user).then((response) => {
      expect(response.status).toBe(200);
      return response.text();
    });
    for (let waited = 0; model.requests.length === before && waited < 5_000; waited += 20) await sleep(20);
    return { text };
  };
  const refused = async (user: TestUser) => {
    const started = performance.now();
    const response = await stream(user);
    const text = await response.text();
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: JSON.parse(text) as unknown,
      elapsedMs: performance.now() - started,
    };
  };

  it('answers 429 with Retry-After beyond the open streams a user or everyone may hold, and frees a slot when a stream ends', async () => {
    const [ada, grace, linus] = [await registerUser(sut), await registerUser(sut), await registerUser(sut)];
    model.replyWith(
      { kind: 'hang' },
      { kind: 'hang' },
      { kind: 'hang' },
      { kind: 'text', text: 'Hello again.' },
    );
    const open = [await openStream(ada), await openStream(ada)];

    const third = await refused(ada);
    expect(third).toMatchObject({
      status: 429,
      retryAfter: '5',
      body: { detail: `Too many open chat streams: at most ${STREAMS_PER_USER} per user, try again later` },
    });
    expect(third.elapsedMs).toBeLessThan(1_000);

    open.push(await openStream(grace));
    const overall = await refused(linus);
    expect(overall).toMatchObject({
      status: 429,
      retryAfter: '5',
      body: { detail: 'Too many open chat streams, try again later' },
    });

    // The refused requests were not answered, so they reached no model and counted no turn.
    expect(model.requests).toHaveLength(3);
    const finished = await Promise.all(open.map((response) => response.text));
    expect(finished.every((text) => text.includes('event: done'))).toBe(true);

    const again = await stream(ada);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Hello again.');
  });

  it('does not count JSON answers as streams', async () => {
    const user = await registerUser(sut);
    model.replyWith({ kind: 'hang' }, { kind: 'hang' }, { kind: 'text', text: 'Plain JSON.' });
    const open = [await openStream(user), await openStream(user)];
    const json = await fetch(`${base}/api/v1/assistant/chat`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'help' }),
    });
    expect(json.status).toBe(200);
    await Promise.all(open.map((response) => response.text));
  });
});
