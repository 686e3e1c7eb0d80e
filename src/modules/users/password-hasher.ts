import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';

const ARGON2ID = { algorithm: Algorithm.Argon2id } as const;

/** argon2id hashing; `verifyAgainstNothing` spends the same time as a real check for unknown users. */
@Injectable()
export class PasswordHasher {
  private decoyHash: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return hash(password, ARGON2ID);
  }

  async verify(hashedPassword: string, password: string): Promise<boolean> {
    try {
      return await verify(hashedPassword, password, ARGON2ID);
    } catch {
      return false;
    }
  }

  async verifyAgainstNothing(password: string): Promise<false> {
    this.decoyHash ??= this.hash('decoy password that matches nobody');
    await this.verify(await this.decoyHash, password);
    return false;
  }
}
