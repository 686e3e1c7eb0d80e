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
  const universe = JSON.parse(universeText) as ReplayUniverseFile;
  const series = universe.stocks.length + universe.indices.length;
  const expectedBytes = series * universe.dates.length * 5 * Int32Array.BYTES_PER_ELEMENT;
  // Decoded into one buffer of the known size: zlib's default 16 KB chunks, concatenated, left
  // ~800 small blocks of freed native memory that the allocator kept in the resident set.
  const raw = await decompress(compressed, { chunkSize: expectedBytes + 1 });
  const encoded = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / Int32Array.BYTES_PER_ELEMENT);
  return new ReplayDataset(universe, encoded);
}
