import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { REPLAY_PRICES_FILE, REPLAY_UNIVERSE_FILE, ReplayUniverseFile } from './replay-data.format';
import { ReplayDataset } from './replay-dataset';

const decompress = promisify(brotliDecompress);

/** The project root, found from this file whether it runs from src/ (tsx, jest) or dist/. */
export function findProjectRoot(start: string = __dirname): string {
  let directory = start;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${start}`);
    directory = parent;
  }
  return directory;
}

/** The files sit beside this module: in src/ for tests and tsx, copied into dist/ by the build. */
export async function loadReplayDataset(dataDir = join(__dirname, 'data')): Promise<ReplayDataset> {
  const [universeText, compressed] = await Promise.all([
    readFile(join(dataDir, REPLAY_UNIVERSE_FILE), 'utf8'),
    readFile(join(dataDir, REPLAY_PRICES_FILE)),
  ]);
  const raw = await decompress(compressed);
  const encoded = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / Int32Array.BYTES_PER_ELEMENT);
  return new ReplayDataset(JSON.parse(universeText) as ReplayUniverseFile, encoded);
}
