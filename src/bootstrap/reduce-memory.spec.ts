import { getHeapSpaceStatistics } from 'node:v8';
import { reduceMemory } from './reduce-memory';

const youngGenerationBytes = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;

/** Objects that outlive a few scavenges each, as a boot's loaded data does, grow the young generation. */
function allocateSurvivors(): number {
  let kept: { index: number; label: string }[] = [];
  for (let round = 0; round < 40; round += 1) {
    for (let index = 0; index < 100_000; index += 1) kept.push({ index, label: `item ${index}` });
    kept = kept.slice(-50_000);
  }
  return kept.length;
}

describe('reduceMemory', () => {
  it("gives back the young generation that surviving allocations grew, which V8's own collections keep", async () => {
    expect(allocateSurvivors()).toBe(50_000);
    const grown = youngGenerationBytes();
    await reduceMemory();
    expect(grown).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    expect(youngGenerationBytes()).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
