import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import type { JwtAlgorithm } from '../../config/auth.config';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  sub: string;
  type: TokenType;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}

/** The signing secret and the one algorithm tokens are signed and accepted with. */
export class SigningKey {
  /**
   * The secret as a key object: given a string, jsonwebtoken first tries to parse it as a PEM
   * public key on every verification, which cost more than the rest of an authenticated request.
   */
  readonly verificationKey: KeyObject;

  constructor(
    readonly secret: string,
    readonly algorithm: JwtAlgorithm,
  ) {
    this.verificationKey = createSecretKey(Buffer.from(secret, 'utf8'));
  }
}

/**
 * Signs and checks our JWTs. Lifetimes run on the wall clock, not the injected Clock, because the
 * JWT libraries (passport-jwt included) check `exp` against the wall clock.
 */
@Injectable()
export class TokenSigner {
  constructor(
    private readonly jwt: JwtService,
    private readonly key: SigningKey,
  ) {}

  sign(
    claims: { sub: number; type: TokenType; sid: string; jti?: string },
    ttlSeconds: number,
    nowSeconds = Math.floor(Date.now() / 1000),
  ): { token: string; jti: string; expiresAt: Date } {
    const jti = claims.jti ?? randomUUID();
    const token = this.jwt.sign(
      {
        sub: String(claims.sub),
        type: claims.type,
        sid: claims.sid,
        jti,
        iat: nowSeconds,
        exp: nowSeconds + ttlSeconds,
      },
      { secret: this.key.secret, algorithm: this.key.algorithm },
    );
    return { token, jti, expiresAt: new Date((nowSeconds + ttlSeconds) * 1000) };
  }

  /** The claims of a token of `type` signed with our key and algorithm and not expired, else null. */
  async verify(token: string, type: TokenType): Promise<TokenClaims | null> {
    try {
      const claims = await this.jwt.verifyAsync<TokenClaims>(token, {
        secret: this.key.secret,
        algorithms: [this.key.algorithm],
      });
      return isWellFormed(claims, type) ? claims : null;
    } catch {
      return null;
    }
  }
}

export function isWellFormed(claims: Partial<TokenClaims>, type: TokenType): claims is TokenClaims {
  return (
    claims.type === type &&
    typeof claims.sid === 'string' &&
    typeof claims.jti === 'string' &&
    typeof claims.sub === 'string' &&
    /^\d+$/.test(claims.sub)
  );
}
