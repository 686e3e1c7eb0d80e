import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull, MoreThan, Not } from 'typeorm';
import type { ClientInfo } from '../../common/auth/client.decorator';
import { ConsistentCache } from '../../common/cache/consistent-cache';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { Clock } from '../../common/time/clock';
import { authConfig } from '../../config/auth.config';
import { RefreshTokenEntity } from './entities/refresh-token.entity';
import { SessionEntity } from './entities/session.entity';
import { TokenSigner } from './token-signer';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** A live session as its user sees it. */
export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  userAgent: string | null;
  clientIp: string | null;
}

/** `userId` of a rejected token is its signed owner, or null when the token is not one of ours. */
export type RotationResult =
  { outcome: 'rotated'; userId: number; tokens: TokenPair } | { outcome: 'rejected'; userId: number | null };

const SESSION_STATE_TTL_MS = 5 * 60_000;
const sessionStateKey = (sessionId: string) => `auth:session:${sessionId}`;
const REVOKED = 'revoked';

/**
 * Server-side sessions. Refresh tokens rotate: each is usable once, and presenting one that was
 * already rotated revokes its whole session (someone else holds a copy) — except within a short
 * grace window after its rotation, when it gets the same successor pair again (two tabs, or a
 * retry after a lost response, refreshing at once).
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly cache: ConsistentCache,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
  ) {}

  async start(userId: number, client: ClientInfo): Promise<TokenPair> {
    const sessionId = randomUUID();
    const now = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      await manager.insert(SessionEntity, {
        id: sessionId,
        userId,
        createdAt: now,
        revokedAt: null,
        lastUsedAt: now,
        userAgent: client.userAgent,
        clientIp: client.ip,
      });
      return this.issuePair(manager, userId, sessionId);
    });
  }

  async rotate(refreshToken: string, client: ClientInfo): Promise<RotationResult> {
    const claims = await this.signer.verify(refreshToken, 'refresh');
    if (!claims) return { outcome: 'rejected', userId: null };
    const rejected: RotationResult = { outcome: 'rejected', userId: Number(claims.sub) };
    const now = this.clock.now();
    const result = await this.dataSource.transaction(
      async (manager): Promise<RotationResult | 'reused' | 'ended'> => {
        const presented = await manager.findOne(RefreshTokenEntity, {
          where: { jti: claims.jti },
          lock: { mode: 'pessimistic_write' },
        });
        if (!presented) return rejected;
        const session = await manager.findOneBy(SessionEntity, {
          id: presented.sessionId,
          revokedAt: IsNull(),
        });
        if (session && this.isPastMaxAge(session, now)) return 'ended';
        if (presented.revokedAt) {
          if (!presented.replacedBy) return rejected;
          const successor = session && (await this.successorWithinGrace(manager, presented, now));
          return successor ? { outcome: 'rotated', userId: presented.userId, tokens: successor } : 'reused';
        }
        if (!session) return rejected;
        const nextJti = randomUUID();
        await manager.update(
          RefreshTokenEntity,
          { jti: presented.jti },
          { revokedAt: now, replacedBy: nextJti },
        );
        await manager.update(
          SessionEntity,
          { id: session.id },
          { lastUsedAt: now, userAgent: client.userAgent, clientIp: client.ip },
        );
        const tokens = await this.issuePair(manager, presented.userId, presented.sessionId, nextJti);
        return { outcome: 'rotated', userId: presented.userId, tokens };
      },
    );
    if (result === 'reused' || result === 'ended') {
      await this.revokeSession(claims.sid);
      return rejected;
    }
    return result;
  }

  /** Sessions have an absolute lifetime: past it, the user logs in again (AUTH_SESSION_MAX_DAYS). */
  private isPastMaxAge(session: SessionEntity, now: Date): boolean {
    return now.getTime() - session.createdAt.getTime() >= this.config.sessionMaxAgeSeconds * 1000;
  }

  /**
   * The pair issued when `presented` was rotated, signed again from the stored successor (the same
   * claims give the same tokens), if that happened within the grace window and the successor has
   * not been used or revoked since.
   */
  private async successorWithinGrace(
    manager: EntityManager,
    presented: RefreshTokenEntity,
    now: Date,
  ): Promise<TokenPair | null> {
    const graceMs = this.config.refreshReuseGraceSeconds * 1000;
    if (!presented.revokedAt || now.getTime() - presented.revokedAt.getTime() > graceMs) return null;
    const successor = await manager.findOneBy(RefreshTokenEntity, { jti: presented.replacedBy ?? undefined });
    if (!successor || successor.revokedAt) return null;
    const issuedAtSeconds = successor.expiresAt.getTime() / 1000 - this.config.refreshTokenTtlSeconds;
    return this.signPair(successor.userId, successor.sessionId, successor.jti, issuedAtSeconds).tokens;
  }

  /** Revokes the session, and with it every access and refresh token it issued. */
  async revokeSession(sessionId: string): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await manager.update(SessionEntity, { id: sessionId, revokedAt: IsNull() }, { revokedAt: now });
      await manager.update(RefreshTokenEntity, { sessionId, revokedAt: IsNull() }, { revokedAt: now });
    });
    await this.cache.putFinal(sessionStateKey(sessionId), REVOKED, SESSION_STATE_TTL_MS);
  }

  /** The user's live sessions, the most recently used first. */
  async list(userId: number): Promise<SessionSummary[]> {
    const oldestLive = new Date(this.clock.now().getTime() - this.config.sessionMaxAgeSeconds * 1000);
    const sessions = await this.dataSource.getRepository(SessionEntity).find({
      where: { userId, revokedAt: IsNull(), createdAt: MoreThan(oldestLive) },
      order: { lastUsedAt: 'DESC', id: 'ASC' },
    });
    return sessions.map(({ id, createdAt, lastUsedAt, userAgent, clientIp }) => ({
      id,
      createdAt,
      lastUsedAt,
      userAgent,
      clientIp,
    }));
  }

  /** Ends one of the user's live sessions; someone else's, or one already ended, is not found. */
  async revokeOwnSession(userId: number, sessionId: string): Promise<void> {
    const session = await this.dataSource
      .getRepository(SessionEntity)
      .findOneBy({ id: sessionId, userId, revokedAt: IsNull() });
    if (!session) throw new NotFoundError(ErrorDetail.sessionNotFound);
    await this.revokeSession(sessionId);
  }

  /** The session a refresh token belongs to, if it is the caller's; used by logout's optional field. */
  async sessionOfRefreshToken(refreshToken: string, userId: number): Promise<string | null> {
    const claims = await this.signer.verify(refreshToken, 'refresh');
    return claims && Number(claims.sub) === userId ? claims.sid : null;
  }

  /** Revokes every session of the user, but `keptSessionId` when given. */
  async revokeAllSessions(userId: number, keptSessionId?: string): Promise<void> {
    const kept = keptSessionId ? { id: Not(keptSessionId) } : {};
    const keptTokens = keptSessionId ? { sessionId: Not(keptSessionId) } : {};
    const sessions = await this.dataSource
      .getRepository(SessionEntity)
      .find({ select: { id: true }, where: { userId, revokedAt: IsNull(), ...kept } });
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await manager.update(SessionEntity, { userId, revokedAt: IsNull(), ...kept }, { revokedAt: now });
      await manager.update(
        RefreshTokenEntity,
        { userId, revokedAt: IsNull(), ...keptTokens },
        { revokedAt: now },
      );
    });
    await Promise.all(
      sessions.map(({ id }) => this.cache.putFinal(sessionStateKey(id), REVOKED, SESSION_STATE_TTL_MS)),
    );
  }

  /** Runs on every authenticated request, so the answer is cached; a revocation always wins over a fill. */
  async isActive(sessionId: string, userId: number): Promise<boolean> {
    const state = await this.cache.read(
      sessionStateKey(sessionId),
      async () => {
        const session = await this.dataSource.getRepository(SessionEntity).findOneBy({ id: sessionId });
        return session && !session.revokedAt ? `active:${session.userId}` : REVOKED;
      },
      SESSION_STATE_TTL_MS,
    );
    return state === `active:${userId}`;
  }

  private async issuePair(
    manager: EntityManager,
    userId: number,
    sessionId: string,
    refreshJti: string = randomUUID(),
  ): Promise<TokenPair> {
    const { tokens, refreshExpiresAt } = this.signPair(
      userId,
      sessionId,
      refreshJti,
      Math.floor(Date.now() / 1000),
    );
    await manager.insert(RefreshTokenEntity, {
      jti: refreshJti,
      sessionId,
      userId,
      expiresAt: refreshExpiresAt,
      createdAt: this.clock.now(),
      revokedAt: null,
      replacedBy: null,
    });
    return tokens;
  }

  /** Deterministic: the same refresh jti and issue time give the same pair (the grace window relies on it). */
  private signPair(
    userId: number,
    sessionId: string,
    refreshJti: string,
    issuedAtSeconds: number,
  ): { tokens: TokenPair; refreshExpiresAt: Date } {
    const access = this.signer.sign(
      { sub: userId, type: 'access', sid: sessionId, jti: accessJtiFor(refreshJti) },
      this.config.accessTokenTtlSeconds,
      issuedAtSeconds,
    );
    const refresh = this.signer.sign(
      { sub: userId, type: 'refresh', sid: sessionId, jti: refreshJti },
      this.config.refreshTokenTtlSeconds,
      issuedAtSeconds,
    );
    return {
      tokens: { accessToken: access.token, refreshToken: refresh.token },
      refreshExpiresAt: refresh.expiresAt,
    };
  }
}

/** An access token's jti is derived from its pair's refresh jti, so the pair can be signed again identically. */
function accessJtiFor(refreshJti: string): string {
  const hex = createHash('sha256').update(`access:${refreshJti}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
