import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { REPLAY_PRICES_FILE, REPLAY_UNIVERSE_FILE, ReplayUniverseFile } from './replay-data.format';
import { ReplayDataset } from './replay-dataset';

const decompress = promisify(brotliDecompress);

/**
 * data/replay at the project root: this file sits two folders below it both in src/ (tests, tsx)
 * and in dist/ (the build), and the Docker image keeps data/ beside dist/.
 */
export const REPLAY_DATA_DIR = join(__dirname, '..', '..', '..', 'data', 'replay');

export async function loadReplayDataset(dataDir = REPLAY_DATA_DIR): Promise<ReplayDataset> {
  const [universeText, compressed] = await Promise.all([
    readFile(join(dataDir, REPLAY_UNIVERSE_FILE), 'utf8'),
    readFile(join(dataDir, REPLAY_PRICES_FILE)),
  ]);
  const raw = await decompress(compressed);
  const encoded = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / Int32Array.BYTES_PER_ELEMENT);
  return new ReplayDataset(JSON.parse(universeText) as ReplayUniverseFile, encoded);
}
