import type { SessionKeeping } from '../../src/modules/auth/auth.service';
import type { RotationResult, TokenPair } from '../../src/modules/auth/sessions.service';

export const TOKEN_PAIR: TokenPair = { accessToken: 'access', refreshToken: 'refresh' };

/** Records what was started and revoked; `rotation` is the answer to the next refresh. */
export class FakeSessions implements SessionKeeping {
  started: number[] = [];
  revoked: string[] = [];
  revokedUsers: number[] = [];
  rotation: RotationResult = { outcome: 'rotated', userId: 7, tokens: TOKEN_PAIR };
  /** Refresh token → the session it belongs to. */
  ownerOf: Record<string, { userId: number; sessionId: string }> = {};

  async start(userId: number): Promise<TokenPair> {
    this.started.push(userId);
    return TOKEN_PAIR;
  }

  async rotate(): Promise<RotationResult> {
    return this.rotation;
  }

  async revokeSession(sessionId: string): Promise<void> {
    this.revoked.push(sessionId);
  }

  async sessionOfRefreshToken(refreshToken: string, userId: number): Promise<string | null> {
    const owner = this.ownerOf[refreshToken];
    return owner && owner.userId === userId ? owner.sessionId : null;
  }

  async revokeAllSessions(userId: number): Promise<void> {
    this.revokedUsers.push(userId);
  }
}
