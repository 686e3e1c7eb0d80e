import { AuthSession, createApiClient, TabChannel, TabMessage, TokenStorage } from '../../client';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { expiredCopy } from '../support/expired-token';

/** sessionStorage of one tab. */
class TabStorage implements TokenStorage {
  private readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

/**
 * The typed client's session middleware against a listening service, over real HTTP: each "tab"
 * is an AuthSession with its own storage and a real BroadcastChannel of the same name.
 */
describe('AuthSession: the token middleware of the typed client', () => {
  let sut: TestApp;
  let baseUrl: string;
  let user: TestUser;
  const channels: InstanceType<typeof BroadcastChannel>[] = [];
  let refreshes: number;

  /** fetch, counting the refresh calls that reach the service. */
  const countingFetch: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/api/v1/auth/refresh')) refreshes += 1;
    return fetch(input, init);
  };

  function openTab(channelName: string, storage = new TabStorage()) {
    const channel = new BroadcastChannel(channelName);
    channels.push(channel);
    const tab: TabChannel = {
      postMessage: (message) => channel.postMessage(message),
      addEventListener: (type, listener) =>
        channel.addEventListener(type, (event) =>
          listener({ data: (event as unknown as { data: TabMessage }).data }),
        ),
    };
    const session = new AuthSession({
      baseUrl,
      storage,
      channel: tab,
      fetch: countingFetch,
      askTimeoutMs: 200,
    });
    const api = createApiClient({ baseUrl, fetch: countingFetch });
    api.use(session.middleware());
    return { session, api, storage };
  }

  beforeAll(async () => {
    sut = await createTestApp();
    baseUrl = await sut.listen();
  });
  beforeEach(async () => {
    refreshes = 0;
    user = await registerUser(sut);
  });
  afterEach(() => channels.splice(0).forEach((channel) => channel.close()));
  afterAll(() => sut?.close());

  it('adds the token, and after a 401 refreshes once and retries: the caller sees the answer', async () => {
    const { session, api, storage } = openTab('expired');
    session.signIn({ access_token: expiredCopy(user.accessToken), refresh_token: user.refreshToken });

    const [me, positions] = await Promise.all([
      api.GET('/api/v1/auth/me'),
      api.GET('/api/v1/portfolio/positions'),
    ]);

    expect(me.response.status).toBe(200);
    expect(me.data?.email).toBe(user.email);
    expect(positions.response.status).toBe(200);
    expect(refreshes).toBe(1);
    expect(session.token).not.toBe(expiredCopy(user.accessToken));
    expect(storage.getItem('refresh_token')).not.toBe(user.refreshToken);
  });

  it('a 401 that arrives after the refresh finished retries with the new token and spends nothing', async () => {
    const { session, api } = openTab('late');
    const expired = expiredCopy(user.accessToken);
    session.signIn({ access_token: expired, refresh_token: user.refreshToken });
    let releaseLate: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseLate = resolve));
    // The second request's 401 is held back until the first one's refresh and retry are done.
    const lateApi = createApiClient({
      baseUrl,
      fetch: async (input: Request) => {
        const response = await countingFetch(input);
        if (response.status === 401) await held;
        return response;
      },
    });
    lateApi.use(session.middleware());

    const late = lateApi.GET('/api/v1/auth/me');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await api.GET('/api/v1/auth/me')).response.status).toBe(200);
    releaseLate();

    expect((await late).response.status).toBe(200);
    expect(refreshes).toBe(1);
  });

  it('retries a request with a body once, with the body it had', async () => {
    const { session, api } = openTab('body');
    session.signIn({ access_token: expiredCopy(user.accessToken), refresh_token: user.refreshToken });
    const created = await api.POST('/api/v1/portfolio/transactions', {
      body: { side: 'deposit', amount: 1000, executed_at: '2024-01-02T15:00:00Z' },
    });
    expect(created.response.status).toBe(201);
    expect(created.data?.amount).toBe(1000);
    const listed = await api.GET('/api/v1/portfolio/transactions');
    expect(listed.data?.total).toBe(1);
  });

  it('a new tab takes the tokens from an open one without spending the refresh token', async () => {
    const first = openTab('tabs');
    first.session.signIn({ access_token: user.accessToken, refresh_token: user.refreshToken });
    const second = openTab('tabs');

    expect(await second.session.restore()).toBe(true);
    expect(refreshes).toBe(0);
    expect(second.session.token).toBe(user.accessToken);
    expect((await second.api.GET('/api/v1/auth/me')).response.status).toBe(200);
  });

  it('a refresh in one tab reaches the other, which then needs none of its own', async () => {
    const first = openTab('shared');
    const second = openTab('shared');
    first.session.signIn({ access_token: expiredCopy(user.accessToken), refresh_token: user.refreshToken });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.session.token).toBe(first.session.token);

    expect((await first.api.GET('/api/v1/auth/me')).response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.session.token).toBe(first.session.token);
    expect((await second.api.GET('/api/v1/auth/me')).response.status).toBe(200);
    expect(refreshes).toBe(1);
  });

  it('a reload keeps the session through the stored refresh token', async () => {
    const storage = new TabStorage();
    openTab('reload', storage).session.signIn({
      access_token: user.accessToken,
      refresh_token: user.refreshToken,
    });
    channels.splice(0).forEach((channel) => channel.close());
    const messages: TabMessage[] = [];
    const otherTab = new BroadcastChannel('reload');
    channels.push(otherTab);
    otherTab.addEventListener('message', (event) =>
      messages.push((event as unknown as { data: TabMessage }).data),
    );

    const reloaded = openTab('reload', storage);
    expect(await reloaded.session.restore()).toBe(true);
    expect(refreshes).toBe(1);
    // Refreshed at once with its own token: it did not wait for another tab's answer first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages.map((message) => message.type)).toEqual(['tokens']);
    expect((await reloaded.api.GET('/api/v1/auth/me')).data?.email).toBe(user.email);
  });

  it('signing out in one tab signs the other out; a refused refresh leaves the 401 and no session', async () => {
    const changes: boolean[] = [];
    const first = openTab('logout');
    const second = openTab('logout');
    second.session.onChange = (signedIn) => changes.push(signedIn);
    first.session.signIn({ access_token: user.accessToken, refresh_token: user.refreshToken });
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.session.signOut();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.session.signedIn).toBe(false);
    expect(changes).toEqual([true, false]);

    const third = openTab('refused');
    third.session.signIn({ access_token: expiredCopy(user.accessToken), refresh_token: 'not-a-token' });
    const me = await third.api.GET('/api/v1/auth/me');
    expect(me.response.status).toBe(401);
    expect(third.session.signedIn).toBe(false);
    expect(refreshes).toBe(1);
  });
});
