import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTENT_HOLDOUT } from '../../../../../test/fixtures/assistant/intent-holdout';
import { IntentCase, INTENT_TABLE } from '../../../../../test/fixtures/assistant/intent-table';
import { DirectoryEntry, EntityExtractor } from './entity-extractor';
import { classifyIntent } from './intent-classifier';

const universe = JSON.parse(
  readFileSync(join(__dirname, '../../../../../data/replay/universe.json'), 'utf8'),
) as { stocks: DirectoryEntry[] };

/** A case passes when the intent and every expected entity (symbols in order, period) match. */
function judge(sut: EntityExtractor, table: IntentCase[] = INTENT_TABLE) {
  return table.map((row) => {
    const entities = sut.extract(row.q);
    const intent = classifyIntent(row.q, entities);
    const ok =
      intent === row.intent &&
      (row.symbols === undefined || JSON.stringify(entities.symbols) === JSON.stringify(row.symbols)) &&
      (row.period === undefined || entities.period === row.period);
    return { ...row, got: { intent, symbols: entities.symbols, period: entities.period }, ok };
  });
}

describe('the offline engine on the question table', () => {
  const sut = new EntityExtractor(universe.stocks);
  const results = judge(sut);
  const accuracy = results.filter((result) => result.ok).length / results.length;

  it('holds at least 150 varied questions covering every intent', () => {
    expect(INTENT_TABLE.length).toBeGreaterThanOrEqual(150);
    expect(new Set(INTENT_TABLE.map((row) => row.q)).size).toBe(INTENT_TABLE.length);
  });

  it('classifies at least 95 % of them correctly, with their entities', () => {
    const failures = results.filter((result) => !result.ok);
    // Printed so that docs/assistant.md can quote the measured figure.
    console.log(
      `intent table: ${results.length - failures.length}/${results.length} = ${(accuracy * 100).toFixed(1)} %\n` +
        failures
          .map((failure) => `  ✗ ${failure.q} → ${JSON.stringify(failure.got)} (want ${failure.intent})`)
          .join('\n'),
    );
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the offline engine on held-out questions (reported, never tuned on)', () => {
  it('prints its figure and stays above a regression floor', () => {
    const results = judge(new EntityExtractor(universe.stocks), INTENT_HOLDOUT);
    const failures = results.filter((result) => !result.ok);
    console.log(
      `held-out questions: ${results.length - failures.length}/${results.length}\n` +
        failures
          .map((failure) => `  ✗ ${failure.q} → ${JSON.stringify(failure.got)} (want ${failure.intent})`)
          .join('\n'),
    );
    expect(results.length - failures.length).toBeGreaterThanOrEqual(0.7 * results.length);
  });
});
