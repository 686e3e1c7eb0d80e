import type { CredentialChecks } from '../../src/modules/auth/auth.service';
import type { User } from '../../src/modules/users';
import type { UserAuthState } from '../../src/modules/users/users.service';

export const ADA: User = {
  id: 7,
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  isActive: true,
  isSuperuser: false,
  createdAt: new Date('2026-11-22T08:30:00.000Z'),
  updatedAt: null,
};

export const ADA_AUTH_STATE: UserAuthState = {
  email: ADA.email,
  isActive: ADA.isActive,
  isSuperuser: ADA.isSuperuser,
  fullName: ADA.fullName,
  createdAt: ADA.createdAt.toISOString(),
  updatedAt: null,
};

/** One account, `account`, whose password is `password`; `state` is what the auth cache holds for it. */
export class FakeUsers implements CredentialChecks {
  account: User | null = ADA;
  password = 'right password';
  state: UserAuthState | null = ADA_AUTH_STATE;

  async verifyCredentials(email: string, password: string): Promise<User | null> {
    const matches = this.account?.email === email && password === this.password;
    return matches ? this.account : null;
  }

  async authState(userId: number): Promise<UserAuthState | null> {
    return this.account?.id === userId ? this.state : null;
  }
}
