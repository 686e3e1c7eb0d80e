/* eslint-disable @typescript-eslint/no-explicit-any -- Swagger UI's plugin API is untyped */

/**
 * A Swagger UI plugin, serialised into the page as source (keep it self-contained, browser-only
 * JavaScript): Swagger UI's `persistAuthorization` stores everything the Authorize dialog held in
 * `localStorage["authorized"]`, the OAuth2 password flow's username, password and client secret
 * included. This keeps only what a call needs (the access token, or a bearer value), so the lock
 * stays closed across reloads and no secret sits in storage. An entry an older page stored is
 * cleaned the same way when it is restored.
 */
export function tokenOnlyAuthorizationPersistence(): object {
  const tokensOnly = (authorized: Record<string, any>): Record<string, any> => {
    const kept: Record<string, any> = {};
    for (const name of Object.keys(authorized ?? {})) {
      const entry = authorized[name] ?? {};
      if (entry.token && typeof entry.token.access_token === 'string') {
        kept[name] = {
          name: entry.name,
          schema: entry.schema,
          token: { access_token: entry.token.access_token, token_type: entry.token.token_type },
        };
      } else if (typeof entry.value === 'string') {
        kept[name] = { name: entry.name, schema: entry.schema, value: entry.value };
      }
    }
    return kept;
  };
  return {
    statePlugins: {
      auth: {
        wrapActions: {
          // A wrapper receives the bound action and the system; what it returns is not dispatched.
          persistAuthorizationIfNeeded: (_persist: unknown, system: any) => () => {
            const authorized = system.authSelectors.authorized().toJS();
            (globalThis as any).localStorage.setItem('authorized', JSON.stringify(tokensOnly(authorized)));
          },
          restoreAuthorization: (restore: any) => (payload: any) => {
            const cleaned = tokensOnly(payload && payload.authorized);
            (globalThis as any).localStorage.setItem('authorized', JSON.stringify(cleaned));
            return restore({ authorized: cleaned });
          },
        },
      },
    },
  };
}

/** The plugin Swagger UI's page loads by default, which setting `plugins` would otherwise drop. */
export function swaggerUiDownloadUrl(system: unknown): object {
  return (globalThis as any).SwaggerUIBundle.plugins.DownloadUrl(system);
}
