import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UserPreferencesEntity } from './entities/user-preferences.entity';

export type NewPreferencesRecord = Omit<UserPreferencesEntity, 'id'>;
export type PreferencesRecordChanges = Partial<Omit<UserPreferencesEntity, 'id' | 'userId' | 'createdAt'>>;

/** What the service needs of the repository, so unit specs can hand it an in-memory one. */
export type PreferenceRecords = Pick<PreferencesRepository, keyof PreferencesRepository>;

/** Persistence of preference records, keyed by their owner. */
@Injectable()
export class PreferencesRepository {
  constructor(
    @InjectRepository(UserPreferencesEntity) private readonly rows: Repository<UserPreferencesEntity>,
  ) {}

  findByUserId(userId: number): Promise<UserPreferencesEntity | null> {
    return this.rows.findOneBy({ userId });
  }

  /** The watchlists of those of these users who have preferences, in one query with one parameter. */
  async watchlistsOf(userIds: readonly number[]): Promise<Map<number, string[]>> {
    const rows = await this.rows
      .createQueryBuilder('preferences')
      .select(['preferences.userId', 'preferences.watchlist'])
      .where('preferences.userId = ANY(CAST(:userIds AS int[]))', { userIds: [...userIds] })
      .getMany();
    return new Map(rows.map((row) => [row.userId, row.watchlist]));
  }

  /**
   * Inserts the record unless the user already has one, and returns it; null when one existed.
   * The unique `user_id` decides, so concurrent inserts for one user yield exactly one record.
   */
  async insertIfAbsent(record: NewPreferencesRecord): Promise<UserPreferencesEntity | null> {
    const result = await this.rows
      .createQueryBuilder()
      .insert()
      .into(UserPreferencesEntity)
      .values(record)
      .orIgnore()
      .returning(['id'])
      .execute();
    const inserted = (result.raw as { id: number }[])[0];
    return inserted ? this.rows.findOneByOrFail({ id: inserted.id }) : null;
  }

  /** Applies the changes to the user's record and returns it; null when the user has none. */
  async updateByUserId(
    userId: number,
    changes: PreferencesRecordChanges,
  ): Promise<UserPreferencesEntity | null> {
    const result = await this.rows.update({ userId }, changes);
    return result.affected ? this.findByUserId(userId) : null;
  }

  async deleteByUserId(userId: number): Promise<void> {
    await this.rows.delete({ userId });
  }
}
