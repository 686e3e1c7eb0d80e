import { EVAL_QUESTIONS } from '../fixtures/assistant/eval-questions';
import { EvalCase, Graded, loadCases, readTruth, runCase, Truth } from '../eval/assistant-eval';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { seedInvestor } from '../support/investor-ledger';

/** Another question file of the same format (JSON) replaces the built-in table: docs/assistant.md. */
const questionFile = process.env.ASSISTANT_EVAL_FILE;
const CASES: EvalCase[] = questionFile ? loadCases(questionFile) : EVAL_QUESTIONS;
/**
 * Issue 24's bars: the table ≥ 95 % overall and ≥ 90 % per category; a set written by someone else
 * (not tuned on) ≥ 90 % overall. Neither may hold a fabricated figure.
 */
const BARS: { overall: number; perCategory?: number } = questionFile
  ? { overall: 0.9 }
  : { overall: 0.95, perCategory: 0.9 };
const BARS_TITLE = `≥ ${BARS.overall * 100} % overall${BARS.perCategory ? ` and ≥ ${BARS.perCategory * 100} % per category` : ''}`;

describe('assistant evaluation over HTTP on a realistic ledger', () => {
  let sut: TestApp;
  let user: TestUser;
  let baseUrl: string;
  let truth: Truth;
  const graded: Graded[] = [];
  const thisYear = Number(new Date().toLocaleString('en-CA', { timeZone: 'America/New_York' }).slice(0, 4));

  beforeAll(async () => {
    sut = await createTestApp({ env: { ASSISTANT_CHAT_TURNS_PER_MINUTE: '10000' } });
    baseUrl = await sut.listen();
    user = await registerUser(sut);
    await seedInvestor(sut, user, thisYear);
    const symbols = [
      ...new Set(CASES.flatMap((c) => (c.figure?.startsWith('quote:') ? [c.figure.split(':')[1]] : []))),
    ];
    truth = await readTruth(sut, user, thisYear, symbols);
    for (const evalCase of CASES) graded.push(await runCase(baseUrl, user, evalCase, truth));
  }, 600_000);
  afterAll(() => sut.close());

  it('holds at least 400 questions across the categories, none twice', () => {
    if (questionFile) return;
    expect(CASES.length).toBeGreaterThanOrEqual(400);
    expect(new Set(CASES.map((c) => c.turns.join(' | '))).size).toBe(CASES.length);
  });

  it(`scores ${BARS_TITLE}, with no fabricated figure`, () => {
    const categories = [...new Set(graded.map((g) => g.case.category))];
    const score = (rows: Graded[]) => rows.filter((g) => g.ok).length / rows.length;
    const lines = categories.map((category) => {
      const rows = graded.filter((g) => g.case.category === category);
      return `${category}: ${rows.filter((g) => g.ok).length}/${rows.length} = ${(score(rows) * 100).toFixed(1)} %`;
    });
    const failures = graded.filter((g) => !g.ok);
    // Printed so that docs/assistant.md can quote the measured figures.
    console.log(
      [
        `assistant evaluation: ${graded.length - failures.length}/${graded.length} = ${(score(graded) * 100).toFixed(1)} %`,
        ...lines,
        `fabricated figures: ${graded.filter((g) => g.fabricated.length > 0).length}`,
        ...failures.map(
          (g) =>
            `  ✗ [${g.case.category}] ${g.case.turns.join(' → ')}: ${g.problems.join('; ')}\n      ${g.content.split('\n')[0]}`,
        ),
      ].join('\n'),
    );
    expect(graded.filter((g) => g.fabricated.length > 0)).toEqual([]);
    expect(score(graded)).toBeGreaterThanOrEqual(BARS.overall);
    for (const category of categories) {
      expect({
        category,
        score: score(graded.filter((g) => g.case.category === category)) >= (BARS.perCategory ?? 0),
      }).toEqual({
        category,
        score: true,
      });
    }
  });
});
