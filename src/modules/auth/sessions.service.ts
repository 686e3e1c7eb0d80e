import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Cache } from 'cache-manager';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { authConfig } from '../../config/auth.config';
import { RefreshTokenEntity } from './entities/refresh-token.entity';
import { SessionEntity } from './entities/session.entity';
import { TokenSigner } from './token-signer';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export type RotationResult =
  { outcome: 'rotated'; userId: number; tokens: TokenPair } | { outcome: 'rejected' };

const SESSION_STATE_TTL_MS = 5 * 60_000;
const sessionStateKey = (sessionId: string) => `auth:session:${sessionId}`;

/**
 * Server-side sessions. Refresh tokens rotate: each is usable once, and presenting one that was
 * already rotated revokes its whole session (someone else holds a copy).
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
  ) {}

  async start(userId: number): Promise<TokenPair> {
    const sessionId = randomUUID();
    return this.dataSource.transaction(async (manager) => {
      await manager.insert(SessionEntity, {
        id: sessionId,
        userId,
        createdAt: this.clock.now(),
        revokedAt: null,
      });
      return this.issuePair(manager, userId, sessionId);
    });
  }

  async rotate(refreshToken: string): Promise<RotationResult> {
    const claims = await this.signer.verify(refreshToken, 'refresh');
    if (!claims) return { outcome: 'rejected' };
    const now = this.clock.now();
    const nextJti = randomUUID();
    const result = await this.dataSource.transaction(async (manager): Promise<RotationResult | 'reused'> => {
      const presented = await manager.findOne(RefreshTokenEntity, {
        where: { jti: claims.jti },
        lock: { mode: 'pessimistic_write' },
      });
      if (!presented) return { outcome: 'rejected' };
      if (presented.revokedAt) return presented.replacedBy ? 'reused' : { outcome: 'rejected' };
      const session = await manager.findOneBy(SessionEntity, {
        id: presented.sessionId,
        revokedAt: IsNull(),
      });
      if (!session) return { outcome: 'rejected' };
      await manager.update(
        RefreshTokenEntity,
        { jti: presented.jti },
        { revokedAt: now, replacedBy: nextJti },
      );
      const tokens = await this.issuePair(manager, presented.userId, presented.sessionId, nextJti);
      return { outcome: 'rotated', userId: presented.userId, tokens };
    });
    if (result === 'reused') {
      await this.revokeSession(claims.sid);
      return { outcome: 'rejected' };
    }
    return result;
  }

  /** Revokes the session, and with it every access and refresh token it issued. */
  async revokeSession(sessionId: string): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await manager.update(SessionEntity, { id: sessionId, revokedAt: IsNull() }, { revokedAt: now });
      await manager.update(RefreshTokenEntity, { sessionId, revokedAt: IsNull() }, { revokedAt: now });
    });
    await this.cache.set(sessionStateKey(sessionId), 'revoked', SESSION_STATE_TTL_MS);
  }

  /** The session a refresh token belongs to, if it is the caller's; used by logout's optional field. */
  async sessionOfRefreshToken(refreshToken: string, userId: number): Promise<string | null> {
    const claims = await this.signer.verify(refreshToken, 'refresh');
    return claims && Number(claims.sub) === userId ? claims.sid : null;
  }

  async revokeAllSessions(userId: number): Promise<void> {
    const sessions = await this.dataSource
      .getRepository(SessionEntity)
      .find({ select: { id: true }, where: { userId, revokedAt: IsNull() } });
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await manager.update(SessionEntity, { userId, revokedAt: IsNull() }, { revokedAt: now });
      await manager.update(RefreshTokenEntity, { userId, revokedAt: IsNull() }, { revokedAt: now });
    });
    await Promise.all(
      sessions.map(({ id }) => this.cache.set(sessionStateKey(id), 'revoked', SESSION_STATE_TTL_MS)),
    );
  }

  /** Runs on every authenticated request, so the answer is cached and revocation overwrites it. */
  async isActive(sessionId: string, userId: number): Promise<boolean> {
    const cached = await this.cache.get<string>(sessionStateKey(sessionId));
    if (cached) return cached === `active:${userId}`;
    const session = await this.dataSource.getRepository(SessionEntity).findOneBy({ id: sessionId });
    const state = session && !session.revokedAt ? `active:${session.userId}` : 'revoked';
    await this.cache.set(sessionStateKey(sessionId), state, SESSION_STATE_TTL_MS);
    return state === `active:${userId}`;
  }

  private async issuePair(
    manager: EntityManager,
    userId: number,
    sessionId: string,
    refreshJti?: string,
  ): Promise<TokenPair> {
    const access = this.signer.sign(
      { sub: userId, type: 'access', sid: sessionId },
      this.config.accessTokenTtlSeconds,
    );
    const refresh = this.signer.sign(
      { sub: userId, type: 'refresh', sid: sessionId, jti: refreshJti },
      this.config.refreshTokenTtlSeconds,
    );
    await manager.insert(RefreshTokenEntity, {
      jti: refresh.jti,
      sessionId,
      userId,
      expiresAt: refresh.expiresAt,
      createdAt: this.clock.now(),
      revokedAt: null,
      replacedBy: null,
    });
    return { accessToken: access.token, refreshToken: refresh.token };
  }
}
