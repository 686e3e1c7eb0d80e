import { Injectable } from '@nestjs/common';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { FieldPath, FieldProblems } from '../../common/errors/field-problems';

/** zxcvbn's score 3: about 10^8 guesses, out of reach of online guessing and costly offline against argon2id. */
export const PASSWORD_MIN_SCORE = 3;

/**
 * The estimate reads this many leading characters, and skips l33t substitutions: both bound its
 * cost (measured: a 128-character run of `p@ssw0rd` took 1.5 s with the defaults, under 50 ms
 * with these), and a password whose first 64 characters are guessable is refused anyway.
 */
const ESTIMATED_LENGTH = 64;

/** How long the estimator is kept after its last use. */
const KEPT_IDLE_MS = 120_000;

let estimator: Promise<ZxcvbnFactory> | null = null;
let lastUsedAt = 0;
let releaseTimer: NodeJS.Timeout | null = null;

/**
 * Loaded on first use: the common and English dictionaries cost about 25 MB of heap (their ranked
 * lookup tables most of it) and 0.3–1 s of loading (measured on two shared cores), paid by the
 * first password check rather than by every boot. New passwords are rare (registration, a change,
 * a reset), so the estimator is let go after two idle minutes instead of being held for the life
 * of every process; the next check loads it again.
 */
function passwordEstimator(): Promise<ZxcvbnFactory> {
  lastUsedAt = Date.now();
  releaseTimer ??= setTimeout(releaseWhenIdle, KEPT_IDLE_MS).unref();
  estimator ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, english]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
        maxLength: ESTIMATED_LENGTH,
        l33tMaxSubstitutions: 0,
      }),
  );
  return estimator;
}

function releaseWhenIdle(): void {
  const idleMs = Date.now() - lastUsedAt;
  if (idleMs >= KEPT_IDLE_MS) {
    estimator = null;
    releaseTimer = null;
  } else {
    releaseTimer = setTimeout(releaseWhenIdle, KEPT_IDLE_MS - idleMs).unref();
  }
}

/**
 * What a new password must be, after NIST SP 800-63B: long enough (the DTOs' 8 to 128
 * characters), not a common or breached password nor built from one, the account's email or
 * name, and hard enough to guess — no composition rules. Only new passwords are checked:
 * existing ones keep working.
 */
@Injectable()
export class PasswordPolicy {
  /** Throws a field problem at `path` with the reason when the password is too easy to guess. */
  async requireStrong(
    password: string,
    path: FieldPath,
    account: { email: string; fullName?: string },
  ): Promise<void> {
    const reason = await weakness(password, accountWords(account));
    if (reason) throw FieldProblems.invalid(path, reason);
  }
}

/** Why the password is too easy to guess, or null when it is strong enough. */
export async function weakness(password: string, userInputs: string[] = []): Promise<string | null> {
  const { score, feedback } = (await passwordEstimator()).check(password, userInputs);
  if (score >= PASSWORD_MIN_SCORE) return null;
  const hints = [feedback.warning, ...feedback.suggestions].filter((hint): hint is string => Boolean(hint));
  return ['Password is too easy to guess.', ...hints].join(' ');
}

function accountWords({ email, fullName }: { email: string; fullName?: string }): string[] {
  const [local, domain] = email.toLowerCase().split('@');
  return [email, local, domain, ...(fullName ? [fullName, ...fullName.split(/\s+/)] : [])].filter(
    (word): word is string => Boolean(word),
  );
}
