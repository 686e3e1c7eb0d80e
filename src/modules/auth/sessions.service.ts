import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { createHash, randomUUID } from 'node:crypto';
import type { ClientInfo } from '../../common/auth/client.decorator';
import { ConsistentCache } from '../../common/cache/consistent-cache';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { Clock } from '../../common/time/clock';
import { authConfig } from '../../config/auth.config';
import { RefreshTokenEntity } from './entities/refresh-token.entity';
import { SessionEntity } from './entities/session.entity';
import { SessionsRepository } from './sessions.repository';
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
    private readonly rows: SessionsRepository,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly cache: ConsistentCache,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
  ) {}

  @Transactional()
  async start(userId: number, client: ClientInfo): Promise<TokenPair> {
    const sessionId = randomUUID();
    const now = this.clock.now();
    await this.rows.insertSession({
      id: sessionId,
      userId,
      createdAt: now,
      revokedAt: null,
      lastUsedAt: now,
      userAgent: client.userAgent,
      clientIp: client.ip,
    });
    return this.issuePair(userId, sessionId);
  }

  async rotate(refreshToken: string, client: ClientInfo): Promise<RotationResult> {
    const claims = await this.signer.verify(refreshToken, 'refresh');
    if (!claims) return { outcome: 'rejected', userId: null };
    const rejected: RotationResult = { outcome: 'rejected', userId: Number(claims.sub) };
    const result = await this.rotateStored(claims.jti, rejected, client);
    if (result === 'reused' || result === 'ended') {
      await this.revokeSession(claims.sid);
      return rejected;
    }
    return result;
  }

  /** The stored side of a rotation, in one transaction that holds the presented token's row. */
  @Transactional()
  private async rotateStored(
    jti: string,
    rejected: RotationResult,
    client: ClientInfo,
  ): Promise<RotationResult | 'reused' | 'ended'> {
    const presented = await this.rows.lockRefreshToken(jti);
    if (!presented) return rejected;
    // Read once the row is held, so a rotation that committed first is never later than this.
    const now = this.clock.now();
    const session = await this.rows.findUnrevokedSession(presented.sessionId);
    if (session && this.isPastMaxAge(session, now)) return 'ended';
    if (presented.revokedAt) {
      if (!presented.replacedBy) return rejected;
      const successor = session && (await this.successorWithinGrace(presented, now));
      return successor ? { outcome: 'rotated', userId: presented.userId, tokens: successor } : 'reused';
    }
    if (!session) return rejected;
    const nextJti = randomUUID();
    await this.rows.markRotated(presented.jti, now, nextJti);
    await this.rows.touchSession(session.id, now, { userAgent: client.userAgent, clientIp: client.ip });
    const tokens = await this.issuePair(presented.userId, presented.sessionId, nextJti);
    return { outcome: 'rotated', userId: presented.userId, tokens };
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
  private async successorWithinGrace(presented: RefreshTokenEntity, now: Date): Promise<TokenPair | null> {
    // The window is half-open, [rotation, rotation + grace): with no grace, a second use in the same
    // millisecond as the rotation is a reuse too (ten concurrent refreshes once gave two 200s).
    const graceMs = this.config.refreshReuseGraceSeconds * 1000;
    if (!presented.revokedAt || now.getTime() - presented.revokedAt.getTime() >= graceMs) return null;
    const successor = presented.replacedBy ? await this.rows.findRefreshToken(presented.replacedBy) : null;
    if (!successor || successor.revokedAt) return null;
    const issuedAtSeconds = successor.expiresAt.getTime() / 1000 - this.config.refreshTokenTtlSeconds;
    return this.signPair(successor.userId, successor.sessionId, successor.jti, issuedAtSeconds).tokens;
  }

  /** Revokes the session, and with it every access and refresh token it issued. */
  async revokeSession(sessionId: string): Promise<void> {
    await this.revokeStored(sessionId);
    await this.cache.putFinal(sessionStateKey(sessionId), REVOKED, SESSION_STATE_TTL_MS);
  }

  @Transactional()
  private async revokeStored(sessionId: string): Promise<void> {
    await this.rows.revokeSession(sessionId, this.clock.now());
  }

  /** The user's live sessions, the most recently used first. */
  async list(userId: number): Promise<SessionSummary[]> {
    const oldestLive = new Date(this.clock.now().getTime() - this.config.sessionMaxAgeSeconds * 1000);
    const sessions = await this.rows.liveSessions(userId, oldestLive);
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
    const session = await this.rows.findUnrevokedSession(sessionId, userId);
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
    const revoked = await this.revokeAllStored(userId, keptSessionId);
    await Promise.all(
      revoked.map((id) => this.cache.putFinal(sessionStateKey(id), REVOKED, SESSION_STATE_TTL_MS)),
    );
  }

  @Transactional()
  private revokeAllStored(userId: number, keptSessionId?: string): Promise<string[]> {
    return this.rows.revokeSessionsOf(userId, this.clock.now(), keptSessionId);
  }

  /** Whether the session is live when this process holds its state, undefined when it must be read. */
  cachedIsActive(sessionId: string, userId: number): boolean | undefined {
    const state = this.cache.peek(sessionStateKey(sessionId));
    return state === undefined ? undefined : state === `active:${userId}`;
  }

  /** Runs on every authenticated request, so the answer is cached; a revocation always wins over a fill. */
  async isActive(sessionId: string, userId: number): Promise<boolean> {
    const state = await this.cache.read(
      sessionStateKey(sessionId),
      async () => {
        const session = await this.rows.findSession(sessionId);
        return session && !session.revokedAt ? `active:${session.userId}` : REVOKED;
      },
      SESSION_STATE_TTL_MS,
    );
    return state === `active:${userId}`;
  }

  private async issuePair(
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
    await this.rows.insertRefreshToken({
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
