import { UserPreferencesEntity } from '../../src/modules/preferences/entities/user-preferences.entity';
import {
  NewPreferencesRecord,
  PreferenceRecords,
  PreferencesRecordChanges,
} from '../../src/modules/preferences/preferences.repository';

/**
 * The preference records in a map, one per user as the unique `user_id` makes them; every read
 * hands out a copy, as a database would.
 */
export class InMemoryPreferencesRepository implements PreferenceRecords {
  private readonly records = new Map<number, UserPreferencesEntity>();
  private lastId = 0;

  async findByUserId(userId: number): Promise<UserPreferencesEntity | null> {
    const record = this.records.get(userId);
    return record ? structuredClone(record) : null;
  }

  async watchlistsOf(userIds: readonly number[]): Promise<Map<number, string[]>> {
    const found = new Map<number, string[]>();
    for (const userId of userIds) {
      const record = this.records.get(userId);
      if (record) found.set(userId, [...record.watchlist]);
    }
    return found;
  }

  async insertIfAbsent(record: NewPreferencesRecord): Promise<UserPreferencesEntity | null> {
    if (this.records.has(record.userId)) return null;
    this.records.set(record.userId, structuredClone({ ...record, id: ++this.lastId }));
    return this.findByUserId(record.userId);
  }

  async updateByUserId(
    userId: number,
    changes: PreferencesRecordChanges,
  ): Promise<UserPreferencesEntity | null> {
    const record = this.records.get(userId);
    if (!record) return null;
    this.records.set(userId, structuredClone({ ...record, ...changes }));
    return this.findByUserId(userId);
  }

  async deleteByUserId(userId: number): Promise<void> {
    this.records.delete(userId);
  }
}
