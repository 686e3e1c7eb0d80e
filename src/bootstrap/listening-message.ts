import type { AddressInfo } from 'node:net';
import { API_PREFIX } from './configure-app';

const ANY_ADDRESS = ['0.0.0.0', '::'];

/**
 * The line that tells a developer where to point a browser: the API and, when served, its docs
 * and the web app.
 */
export function listeningMessage(address: AddressInfo, docsEnabled: boolean, webApp = false): string {
  const host = ANY_ADDRESS.includes(address.address)
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  const origin = `http://${host}:${address.port}`;
  const api = `API at ${origin}/${API_PREFIX}`;
  const docs = docsEnabled ? `${api}, docs at ${origin}/docs` : `${api} (docs off: DOCS_ENABLED=false)`;
  return webApp ? `${docs}, web app at ${origin}/` : docs;
}
