import { Inject, Injectable } from '@nestjs/common';
import { ConsistentCache } from '../../common/cache/consistent-cache';
import { Clock } from '../../common/time/clock';
import { ConflictError, NotFoundError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { UserPreferencesEntity } from './entities/user-preferences.entity';
import { defaultsForLevel, LevelDefaults, levelDefaults } from './level-defaults';
import { toAllColumns, toColumns } from './preference-columns';
import { Preferences, toPreferences } from './preferences';
import { NewPreferencesRecord, PreferenceRecords, PreferencesRepository } from './preferences.repository';
import {
  ExperienceLevel,
  isExperienceLevel,
  PREFERENCE_CHOICES,
  PreferenceChanges,
  PreferenceFields,
} from './preference-values';
import { checkWatchlist } from './validation/watchlist-rules';
import { mergeWizardSteps, WizardStepData } from './wizard-steps';

const PREFERENCES_TTL_MS = 60_000;
const preferencesKey = (userId: number) => `preferences:${userId}`;

/**
 * A user's investment preferences: one record per user, reachable only by its owner. Reads are
 * cached (GET /preferences/ and the portfolio's risk comparison ask on every request); every write
 * goes through `written`, which marks the cached record stale once the write has committed.
 */
@Injectable()
export class PreferencesService {
  constructor(
    @Inject(PreferencesRepository) private readonly preferences: PreferenceRecords,
    private readonly clock: Clock,
    private readonly cache: ConsistentCache,
  ) {}

  /** The user's preferences, or null when they have none; for other modules (e.g. portfolio). */
  findForUser(userId: number): Promise<Preferences | null> {
    return this.cache.read(
      preferencesKey(userId),
      async () => {
        const record = await this.preferences.findByUserId(userId);
        return record && toPreferences(record);
      },
      PREFERENCES_TTL_MS,
    );
  }

  /** The watchlists of many users at once (an empty list for a user without preferences). */
  async watchlists(userIds: readonly number[]): Promise<Map<number, string[]>> {
    const found = await this.preferences.watchlistsOf(userIds);
    return new Map(userIds.map((userId) => [userId, found.get(userId) ?? []]));
  }

  async get(userId: number): Promise<Preferences> {
    const found = await this.findForUser(userId);
    if (!found) throw new NotFoundError(ErrorDetail.preferencesNotFound);
    return found;
  }

  /** Creates the record; fields left out take the defaults of the given experience level. */
  async create(
    userId: number,
    fields: PreferenceChanges & Pick<PreferenceFields, 'experience_level'>,
  ): Promise<Preferences> {
    const allFields = { ...defaultsForLevel(fields.experience_level), ...definedOnly(fields) };
    const created = await this.written(
      userId,
      this.preferences.insertIfAbsent(this.newRecord(userId, allFields)),
    );
    if (!created) throw new ConflictError(ErrorDetail.preferencesAlreadyExist);
    return toPreferences(created);
  }

  async update(userId: number, changes: PreferenceChanges): Promise<Preferences> {
    const updated = await this.written(
      userId,
      this.preferences.updateByUserId(userId, { ...toColumns(changes), updatedAt: this.clock.now() }),
    );
    if (!updated) throw new NotFoundError(ErrorDetail.preferencesNotFoundToUpdate);
    return toPreferences(updated);
  }

  /** Idempotent: deleting a record that does not exist succeeds too. */
  async remove(userId: number): Promise<void> {
    await this.written(userId, this.preferences.deleteByUserId(userId));
  }

  defaults(level: string): LevelDefaults {
    return levelDefaults(parseLevel(level));
  }

  choices(): typeof PREFERENCE_CHOICES {
    return PREFERENCE_CHOICES;
  }

  /** The existing record untouched, or a new one from the level's defaults. */
  async getOrCreate(userId: number, level: string): Promise<Preferences> {
    const experienceLevel = parseLevel(level);
    const record =
      (await this.preferences.findByUserId(userId)) ??
      (await this.insertOrLoad(this.newRecord(userId, defaultsForLevel(experienceLevel))));
    return toPreferences(record);
  }

  /**
   * Applies the fields of every step. Without a record, one is first created from the defaults
   * of the level chosen in the essential step (beginner when none). `complete: true` marks
   * onboarding completed, keeping the time it was first completed.
   */
  async runWizard(userId: number, stepData: WizardStepData, complete: boolean): Promise<Preferences> {
    const changes = mergeWizardSteps(stepData);
    const now = this.clock.now();
    const record =
      (await this.preferences.findByUserId(userId)) ??
      (await this.insertOrLoad(
        this.newRecord(userId, defaultsForLevel(changes.experience_level ?? 'beginner'), now),
      ));
    const completion =
      complete && !record.onboardingCompleted
        ? { onboardingCompleted: true, onboardingCompletedAt: now }
        : {};
    const updated = await this.written(
      userId,
      this.preferences.updateByUserId(userId, { ...toColumns(changes), ...completion, updatedAt: now }),
    );
    if (!updated) throw new NotFoundError(ErrorDetail.preferencesNotFoundToUpdate);
    return toPreferences(updated);
  }

  /** Replaces the watchlist with the given symbols, upper-cased. */
  async replaceWatchlist(userId: number, entries: readonly unknown[]): Promise<Preferences> {
    const check = checkWatchlist(entries);
    if (!check.valid) {
      switch (check.problem) {
        case 'too_many':
          throw new RuleViolationError(ErrorDetail.watchlistTooLong);
        case 'invalid_symbols':
          throw new RuleViolationError(ErrorDetail.invalidTickerSymbols(check.offending));
        case 'duplicate_symbols':
          throw new RuleViolationError(ErrorDetail.duplicateTickerSymbols(check.duplicates));
      }
    }
    const updated = await this.written(
      userId,
      this.preferences.updateByUserId(userId, { watchlist: check.symbols, updatedAt: this.clock.now() }),
    );
    if (!updated) throw new NotFoundError(ErrorDetail.preferencesNotFound);
    return toPreferences(updated);
  }

  /** Inserts, or when a concurrent request inserted first, returns that record. */
  private async insertOrLoad(record: NewPreferencesRecord): Promise<UserPreferencesEntity> {
    const created = await this.written(record.userId, this.preferences.insertIfAbsent(record));
    if (created) return created;
    const existing = await this.preferences.findByUserId(record.userId);
    if (!existing) throw new NotFoundError(ErrorDetail.preferencesNotFound);
    return existing;
  }

  /** The write's outcome, once the cached record is marked stale (also when the write failed midway). */
  private async written<T>(userId: number, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      await this.cache.markStale(preferencesKey(userId));
    }
  }

  private newRecord(userId: number, fields: PreferenceFields, now = this.clock.now()): NewPreferencesRecord {
    return {
      userId,
      ...toAllColumns(fields),
      onboardingCompleted: false,
      onboardingCompletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
  }
}

function parseLevel(level: string): ExperienceLevel {
  if (!isExperienceLevel(level)) throw new RuleViolationError(ErrorDetail.invalidExperienceLevel);
  return level;
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
