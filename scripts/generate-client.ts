import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { version } from '../package.json';
import { DOCUMENT_FILE, documentSource, documentWithoutServer } from './openapi-client';

/**
 * First half of `npm run client:generate`: rewrites client/openapi.json from the routes; the
 * second half, openapi-typescript, turns it into client/schema.d.ts.
 */
async function main(): Promise<void> {
  writeFileSync(DOCUMENT_FILE, documentSource(await documentWithoutServer(version)));
  console.log(`wrote ${relative(process.cwd(), DOCUMENT_FILE)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
