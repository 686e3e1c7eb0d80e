import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { IsNull, LessThanOrEqual, MoreThan, Not } from 'typeorm';
import { RefreshTokenEntity } from './entities/refresh-token.entity';
import { SessionEntity } from './entities/session.entity';

export interface SessionClient {
  userAgent: string | null;
  clientIp: string | null;
}

/** Every query on sessions and refresh tokens; each joins the caller's transaction when there is one. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** The current transaction's EntityManager, or the pool's outside one. */
  private get manager() {
    return this.host.tx;
  }

  async insertSession(session: SessionEntity): Promise<void> {
    await this.manager.insert(SessionEntity, session);
  }

  async insertRefreshToken(token: RefreshTokenEntity): Promise<void> {
    await this.manager.insert(RefreshTokenEntity, token);
  }

  /** The refresh token, its row locked until the transaction ends. */
  lockRefreshToken(jti: string): Promise<RefreshTokenEntity | null> {
    return this.manager.findOne(RefreshTokenEntity, { where: { jti }, lock: { mode: 'pessimistic_write' } });
  }

  findRefreshToken(jti: string): Promise<RefreshTokenEntity | null> {
    return this.manager.findOneBy(RefreshTokenEntity, { jti });
  }

  findSession(id: string): Promise<SessionEntity | null> {
    return this.manager.findOneBy(SessionEntity, { id });
  }

  findUnrevokedSession(id: string, userId?: number): Promise<SessionEntity | null> {
    return this.manager.findOneBy(SessionEntity, {
      id,
      revokedAt: IsNull(),
      ...(userId !== undefined && { userId }),
    });
  }

  /** The user's unrevoked sessions created after `createdAfter`, the most recently used first. */
  liveSessions(userId: number, createdAfter: Date): Promise<SessionEntity[]> {
    return this.manager.find(SessionEntity, {
      where: { userId, revokedAt: IsNull(), createdAt: MoreThan(createdAfter) },
      order: { lastUsedAt: 'DESC', id: 'ASC' },
    });
  }

  async markRotated(jti: string, at: Date, replacedBy: string): Promise<void> {
    await this.manager.update(RefreshTokenEntity, { jti }, { revokedAt: at, replacedBy });
  }

  async touchSession(id: string, at: Date, client: SessionClient): Promise<void> {
    await this.manager.update(SessionEntity, { id }, { lastUsedAt: at, ...client });
  }

  /** Revokes the session and every refresh token it issued. */
  async revokeSession(sessionId: string, at: Date): Promise<void> {
    await this.manager.update(SessionEntity, { id: sessionId, revokedAt: IsNull() }, { revokedAt: at });
    await this.manager.update(RefreshTokenEntity, { sessionId, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** Revokes every session of the user but `keptSessionId`, with their refresh tokens; answers the ids revoked. */
  async revokeSessionsOf(userId: number, at: Date, keptSessionId?: string): Promise<string[]> {
    const kept = keptSessionId ? { id: Not(keptSessionId) } : {};
    const keptTokens = keptSessionId ? { sessionId: Not(keptSessionId) } : {};
    const sessions = await this.manager.find(SessionEntity, {
      select: { id: true },
      where: { userId, revokedAt: IsNull(), ...kept },
    });
    await this.manager.update(SessionEntity, { userId, revokedAt: IsNull(), ...kept }, { revokedAt: at });
    await this.manager.update(
      RefreshTokenEntity,
      { userId, revokedAt: IsNull(), ...keptTokens },
      { revokedAt: at },
    );
    return sessions.map(({ id }) => id);
  }

  /** Deletes the refresh tokens expired at `now`; answers how many. */
  async deleteExpiredRefreshTokens(now: Date): Promise<number> {
    const { affected } = await this.manager.delete(RefreshTokenEntity, { expiresAt: LessThanOrEqual(now) });
    return affected ?? 0;
  }

  /** Deletes the sessions created at `createdBefore` or earlier that hold no refresh token; answers how many. */
  async deleteSessionsWithoutRefreshTokens(createdBefore: Date): Promise<number> {
    const { affected } = await this.manager
      .createQueryBuilder()
      .delete()
      .from(SessionEntity)
      .where('created_at <= :createdBefore', { createdBefore })
      .andWhere('NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = sessions.id)')
      .execute();
    return affected ?? 0;
  }
}
