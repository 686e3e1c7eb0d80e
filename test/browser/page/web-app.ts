// The page a web app would be: the typed client, bundled for the browser by the test.
import { chatEvents, createApiClient, formBody } from '../../../client';

export interface FlowResult {
  loginStatus: number;
  createdStatus: number;
  deletedStatus: number;
  remaining: number;
  requestIdReadable: boolean;
  chatEvents: string[];
  streamedText: string;
  doneContent: string;
}

async function flow(apiBase: string, email: string, password: string): Promise<FlowResult> {
  const anonymous = createApiClient({ baseUrl: apiBase });
  const login = await anonymous.POST('/api/v1/auth/login', {
    body: { username: email, password },
    bodySerializer: formBody,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  if (!login.data) throw new Error(`login failed: ${login.response.status}`);
  const api = createApiClient({
    baseUrl: apiBase,
    headers: { Authorization: `Bearer ${login.data.access_token}` },
  });
  const created = await api.POST('/api/v1/portfolio/transactions', {
    body: { symbol: 'AAPL', side: 'buy', quantity: 2, price: 100, executed_at: '2025-01-06T15:30:00Z' },
  });
  if (!created.data) throw new Error(`create failed: ${created.response.status}`);
  const deleted = await api.DELETE('/api/v1/portfolio/transactions/{id}', {
    params: { path: { id: created.data.id } },
  });
  const listed = await api.GET('/api/v1/portfolio/transactions');

  const chat = await api.POST('/api/v1/assistant/chat', {
    body: { message: 'How is the market doing today?' },
    headers: { Accept: 'text/event-stream' },
    parseAs: 'stream',
  });
  const names: string[] = [];
  let streamedText = '';
  let doneContent = '';
  for await (const event of chatEvents(chat.response)) {
    names.push(event.event);
    if (event.event === 'delta') streamedText += event.data.text;
    if (event.event === 'done') doneContent = event.data.message.content;
  }
  return {
    loginStatus: login.response.status,
    createdStatus: created.response.status,
    deletedStatus: deleted.response.status,
    remaining: listed.data?.total ?? -1,
    requestIdReadable: created.response.headers.get('x-request-id') !== null,
    chatEvents: names,
    streamedText,
    doneContent,
  };
}

/** What a page on another origin tries: the browser must refuse to hand it the answer. */
async function tryLogin(apiBase: string, email: string, password: string): Promise<string> {
  try {
    const response = await fetch(`${apiBase}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: formBody({ username: email, password }),
    });
    return `read ${response.status}`;
  } catch (error) {
    return `blocked: ${(error as Error).name}`;
  }
}

export interface CookieFlowResult {
  refreshStatus: number;
  email: string;
  scriptSeesRefreshCookie: boolean;
  refreshAfterLogoutStatus: number;
}

/** With AUTH_REFRESH_COOKIE=true: the refresh token never reaches the page's scripts. */
async function cookieFlow(apiBase: string, email: string, password: string): Promise<CookieFlowResult> {
  const login = await fetch(`${apiBase}/api/v1/auth/login`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: formBody({ username: email, password }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const refresh = await fetch(`${apiBase}/api/v1/auth/refresh`, { method: 'POST', credentials: 'include' });
  const { access_token } = (await refresh.json()) as { access_token: string };
  const api = createApiClient({ baseUrl: apiBase, headers: { Authorization: `Bearer ${access_token}` } });
  const me = await api.GET('/api/v1/auth/me');
  await fetch(`${apiBase}/api/v1/auth/logout`, {
    method: 'POST',
    credentials: 'include',
    headers: { Authorization: `Bearer ${access_token}` },
  });
  const afterLogout = await fetch(`${apiBase}/api/v1/auth/refresh`, {
    method: 'POST',
    credentials: 'include',
  });
  return {
    refreshStatus: refresh.status,
    email: me.data?.email ?? '',
    scriptSeesRefreshCookie: document.cookie.includes('refresh_token'),
    refreshAfterLogoutStatus: afterLogout.status,
  };
}

declare const document: { cookie: string };

Object.assign(globalThis, { flow, tryLogin, cookieFlow });
