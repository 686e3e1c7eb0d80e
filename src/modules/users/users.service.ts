import { Injectable, Logger } from '@nestjs/common';
import { ConsistentCache } from '../../common/cache/consistent-cache';
import { ErrorDetail } from '../../common/errors/error-details';
import { isUniqueViolation } from '../../database/unique-violation';
import { EmailTakenError } from './email-taken.error';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy } from './password-policy';
import { User } from './user';
import { UsersRepository } from './users.repository';

export interface NewUser {
  email: string;
  password: string;
  fullName: string;
  isActive?: boolean;
  isSuperuser?: boolean;
}

/**
 * What every authenticated request needs to know about its user, cached between requests, with
 * the rest of the profile (GET /auth/me answers from it without a database read).
 */
export interface UserAuthState {
  email: string;
  isActive: boolean;
  isSuperuser: boolean;
  fullName: string;
  /** ISO 8601, as the profile shows it (the state may travel through Redis as JSON). */
  createdAt: string;
  updatedAt: string | null;
}

const AUTH_STATE_TTL_MS = 60_000;
const MAX_USER_ID = 2_147_483_647;

/** Ids outside the column's integer range name no user (rather than causing a database error). */
export function isStorableUserId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_USER_ID;
}
const authStateKey = (userId: number) => `auth:user:${userId}`;

/**
 * The one form of an email address that is stored, looked up and compared: Unicode NFC (so "é"
 * typed as one code point or as e + combining accent is one address), lower case, no surrounding blanks.
 */
export function canonicalEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

@Injectable()
export class UsersService {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly passwordPolicy: PasswordPolicy,
    private readonly cache: ConsistentCache,
  ) {}

  /**
   * Creates an account, its password held to the password policy (a 422 at `password`); a taken
   * email (whatever its case) is a 400, decided by the unique index.
   */
  async create(user: NewUser): Promise<User> {
    await this.passwordPolicy.requireStrong(user.password, ['password'], user);
    return this.insert(user);
  }

  private async insert(user: NewUser): Promise<User> {
    const row = {
      email: canonicalEmail(user.email),
      fullName: user.fullName,
      hashedPassword: await this.passwords.hash(user.password),
      isActive: user.isActive ?? true,
      isSuperuser: user.isSuperuser ?? false,
    };
    try {
      return await this.users.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError(ErrorDetail.emailAlreadyRegistered);
      throw error;
    }
  }

  async findById(id: number): Promise<User | null> {
    return isStorableUserId(id) ? this.users.findById(id) : null;
  }

  /** The user whose password matches, or null; unknown emails cost one argon2 verification too. */
  async verifyCredentials(email: string, password: string): Promise<User | null> {
    const found = await this.users.findWithPasswordHash(canonicalEmail(email));
    if (!found) return this.passwords.verifyAgainstNothing(password).then(() => null);
    return (await this.passwords.verify(found.hashedPassword, password)) ? found.user : null;
  }

  /** The auth state when this process holds it (null: no such user), undefined when it must be read. */
  cachedAuthState(userId: number): UserAuthState | null | undefined {
    return this.cache.peek(authStateKey(userId)) as UserAuthState | null | undefined;
  }

  /** Read on every authenticated request; a change to the user always wins over a concurrent fill. */
  authState(userId: number): Promise<UserAuthState | null> {
    return this.cache.read(
      authStateKey(userId),
      async () => {
        const user = await this.findById(userId);
        return user
          ? {
              email: user.email,
              isActive: user.isActive,
              isSuperuser: user.isSuperuser,
              fullName: user.fullName,
              createdAt: user.createdAt.toISOString(),
              updatedAt: user.updatedAt?.toISOString() ?? null,
            }
          : null;
      },
      AUTH_STATE_TTL_MS,
    );
  }

  /** Every write to a user goes through here or through UserAdministrationService, which calls it after committing. */
  async forgetAuthState(userId: number): Promise<void> {
    await this.cache.markStale(authStateKey(userId));
  }

  /**
   * Boot-time: creates the configured first superuser unless an account with that email exists.
   * Its password is the operator's choice and is not held to the policy.
   */
  async ensureSuperuser(email: string, password: string): Promise<void> {
    if (await this.users.findWithPasswordHash(canonicalEmail(email))) return;
    try {
      await this.insert({ email, password, fullName: 'Administrator', isSuperuser: true });
      this.logger.log(`Created the first superuser ${email}`);
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
    }
  }
}
