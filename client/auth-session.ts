import type { Middleware } from 'openapi-fetch';

/** What login and refresh answer. */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/** The part of `sessionStorage` the session uses (tests pass a Map-backed one). */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The part of `BroadcastChannel` the session uses. */
export interface TabChannel {
  postMessage(message: TabMessage): void;
  addEventListener(type: 'message', listener: (event: { data: TabMessage }) => void): void;
}

/** The part of `navigator.locks` the session uses. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export type TabMessage =
  { type: 'tokens'; accessToken: string; refreshToken: string | null } | { type: 'logout' } | { type: 'ask' };

export interface AuthSessionOptions {
  /** The API's origin; '' for the page's own. */
  baseUrl: string;
  /** Keeps the refresh token across reloads of this tab (`sessionStorage`); never `localStorage`. */
  storage?: TokenStorage | null;
  /** Shares tokens with the other tabs of the same origin. */
  channel?: TabChannel | null;
  /** Lets one tab at a time refresh (`navigator.locks`); without it, one refresh at a time in this tab. */
  locks?: LockManagerLike | null;
  fetch?: typeof fetch;
  /** How long a new tab waits for another tab to hand it the tokens. */
  askTimeoutMs?: number;
  /** Called whenever the session starts or ends (in this tab or another). */
  onChange?: (signedIn: boolean) => void;
}

const REFRESH_TOKEN_KEY = 'refresh_token';
const LOCK_NAME = 'auth-refresh';
const AUTH_PATHS = ['/api/v1/auth/login', '/api/v1/auth/refresh'];

/**
 * The signed-in state of one tab, shared with the others: the access token in memory only, the
 * refresh token in `sessionStorage` (or, with `AUTH_REFRESH_COOKIE=true`, in the HttpOnly cookie
 * the script never sees). One tab refreshes under a lock and posts the new pair to the others,
 * because a rotated refresh token presented again after the grace window revokes the whole session
 * (docs/web-client.md#several-tabs-one-session).
 */
export class AuthSession {
  private accessToken: string | null = null;
  private refreshToken: string | null;
  private localLock: Promise<unknown> = Promise.resolve();
  private readonly fetch: typeof fetch;
  /** Called whenever the session starts or ends (in this tab or another). */
  onChange: ((signedIn: boolean) => void) | undefined;

  constructor(private readonly options: AuthSessionOptions) {
    this.onChange = options.onChange;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.refreshToken = options.storage?.getItem(REFRESH_TOKEN_KEY) ?? null;
    options.channel?.addEventListener('message', ({ data }) => this.receive(data));
  }

  get signedIn(): boolean {
    return this.accessToken !== null;
  }

  /** The current access token: for requests made outside the typed client. */
  get token(): string | null {
    return this.accessToken;
  }

  /** After a login: keeps the pair and hands it to the other tabs. */
  signIn(tokens: TokenPair): void {
    this.keep(tokens.access_token, tokens.refresh_token);
    this.options.channel?.postMessage({
      type: 'tokens',
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
    });
  }

  /** Forgets the tokens here and in every other tab (the caller revokes them on the server). */
  signOut(): void {
    this.forget();
    this.options.channel?.postMessage({ type: 'logout' });
  }

  /**
   * On a page load: a tab with a stored refresh token (a reload) refreshes with it at once; a new
   * tab first asks the other tabs for the tokens, then refreshes with the cookie, if any. Resolves
   * whether the tab is signed in.
   */
  async restore(): Promise<boolean> {
    if (this.accessToken) return true;
    // Waiting for an answer costs a reload askTimeoutMs when no other tab is open; a tab with its
    // own refresh token needs none, and the lock keeps its refresh from racing another tab's.
    if (this.options.channel && this.refreshToken === null) {
      const signedIn = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), this.options.askTimeoutMs ?? 300);
        this.options.channel?.addEventListener('message', ({ data }) => {
          if (data.type === 'tokens') {
            clearTimeout(timer);
            resolve(true);
          }
        });
      });
      this.options.channel.postMessage({ type: 'ask' });
      if (await signedIn) return true;
    }
    return this.refresh();
  }

  /**
   * Refreshes once for all tabs: whoever holds the lock refreshes; a tab that waited finds the
   * new token another tab posted and does not spend the rotated refresh token again. `staleToken`
   * is the token that was refused: when the current one is already another, nothing is spent.
   */
  async refresh(staleToken: string | null = this.accessToken): Promise<boolean> {
    return this.withLock(async () => {
      if (this.accessToken !== null && this.accessToken !== staleToken) return true;
      const response = await this.fetch(`${this.options.baseUrl}/api/v1/auth/refresh`, {
        method: 'POST',
        credentials: 'include',
        ...(this.refreshToken
          ? {
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ refresh_token: this.refreshToken }),
            }
          : {}),
      }).catch(() => null);
      if (response === null) return false; // offline: keep what we have, the caller shows it
      if (!response.ok) {
        this.signOut();
        return false;
      }
      const tokens = (await response.json()) as TokenPair;
      this.signIn(tokens);
      return true;
    });
  }

  /**
   * openapi-fetch middleware: adds `Authorization`, and after a 401 refreshes once and retries
   * the request once with the new token.
   */
  middleware(): Middleware {
    const retries = new WeakMap<Request, { retry: Request; sentWith: string | null }>();
    return {
      onRequest: ({ request }) => {
        const sentWith = this.accessToken;
        if (sentWith) request.headers.set('Authorization', `Bearer ${sentWith}`);
        if (!AUTH_PATHS.some((path) => new URL(request.url).pathname === path)) {
          retries.set(request, { retry: request.clone(), sentWith });
        }
        return request;
      },
      onResponse: async ({ request, response }) => {
        const pending = retries.get(request);
        if (response.status !== 401 || pending === undefined) return response;
        const { retry, sentWith } = pending;
        // Refused with a token that was already replaced (a refresh finished meanwhile): just retry.
        if (!(await this.refresh(sentWith)) || this.accessToken === null) return response;
        retry.headers.set('Authorization', `Bearer ${this.accessToken}`);
        return this.fetch(retry);
      },
    };
  }

  private receive(message: TabMessage): void {
    if (message.type === 'tokens') {
      const wasSignedIn = this.signedIn;
      this.keep(message.accessToken, message.refreshToken, wasSignedIn);
    } else if (message.type === 'logout') {
      this.forget();
    } else if (message.type === 'ask' && this.accessToken) {
      this.options.channel?.postMessage({
        type: 'tokens',
        accessToken: this.accessToken,
        refreshToken: this.refreshToken,
      });
    }
  }

  private keep(accessToken: string, refreshToken: string | null, quiet = false): void {
    this.accessToken = accessToken;
    this.refreshToken = refreshToken;
    if (refreshToken) this.options.storage?.setItem(REFRESH_TOKEN_KEY, refreshToken);
    else this.options.storage?.removeItem(REFRESH_TOKEN_KEY);
    if (!quiet) this.onChange?.(true);
  }

  private forget(): void {
    const wasSignedIn = this.signedIn;
    this.accessToken = null;
    this.refreshToken = null;
    this.options.storage?.removeItem(REFRESH_TOKEN_KEY);
    if (wasSignedIn) this.onChange?.(false);
  }

  private withLock<T>(callback: () => Promise<T>): Promise<T> {
    if (this.options.locks) return this.options.locks.request(LOCK_NAME, callback);
    const result = this.localLock.then(callback, callback);
    this.localLock = result.catch(() => undefined);
    return result;
  }
}
