import { buildSync } from 'esbuild';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium: nothing here downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Every host name under example.test resolves to 127.0.0.1 inside the browser, so the API and the
 * pages have real, distinct, non-localhost origins over plain HTTP, and nothing leaves the machine.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP *.example.test 127.0.0.1',
    ],
  });
}

/** The web app's page and its script (the typed client bundled for the browser), on 127.0.0.1. */
export async function servePages(): Promise<{ port: number; close(): Promise<void> }> {
  const bundle = buildSync({
    entryPoints: [join(__dirname, 'page', 'web-app.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
  }).outputFiles[0].text;
  const server: Server = createServer((request, response) => {
    if (request.url === '/web-app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>web app</title><script src="/web-app.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('No TCP port');
  return {
    port: address.port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
