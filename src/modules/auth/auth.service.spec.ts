import { BadRequestException, UnauthorizedException } from '@nestjs/common';
import { TooManyRequestsException } from '../../common/errors/too-many-requests.exception';
import { UserEntity } from '../users/entities/user.entity';
import { UserAuthState, UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import { LoginThrottleService } from './login-throttle.service';
import { RotationResult, SessionsService, TokenPair } from './sessions.service';

const pair: TokenPair = { accessToken: 'access', refreshToken: 'refresh' };

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(
    new UserEntity(),
    { id: 7, email: 'ada@example.com', isActive: true, isSuperuser: false },
    overrides,
  );
}

const ADA: UserAuthState = {
  email: 'ada@example.com',
  isActive: true,
  isSuperuser: false,
  fullName: 'Ada Lovelace',
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: null,
};

class FakeUsers {
  account: UserEntity | null = user();
  state: UserAuthState | null = ADA;
  async verifyCredentials(_email: string, password: string) {
    return password === 'right password' ? this.account : null;
  }
  async authState() {
    return this.state;
  }
}

class FakeSessions {
  started: number[] = [];
  revoked: string[] = [];
  rotation: RotationResult = { outcome: 'rotated', userId: 7, tokens: pair };
  ownerOf: Record<string, { userId: number; sessionId: string }> = {};
  async start(userId: number) {
    this.started.push(userId);
    return pair;
  }
  async rotate() {
    return this.rotation;
  }
  async revokeSession(sessionId: string) {
    this.revoked.push(sessionId);
  }
  async sessionOfRefreshToken(token: string, userId: number) {
    const owner = this.ownerOf[token];
    return owner && owner.userId === userId ? owner.sessionId : null;
  }
}

class FakeThrottle {
  failures = 0;
  locked = false;
  async reserveAttempt() {
    if (this.locked) throw new TooManyRequestsException('locked', 60);
    this.failures += 1;
  }
  async release() {
    this.failures -= 1;
  }
}

describe('AuthService', () => {
  let users: FakeUsers;
  let sessions: FakeSessions;
  let throttle: FakeThrottle;
  let sut: AuthService;

  beforeEach(() => {
    users = new FakeUsers();
    sessions = new FakeSessions();
    throttle = new FakeThrottle();
    sut = new AuthService(
      users as unknown as UsersService,
      sessions as unknown as SessionsService,
      throttle as unknown as LoginThrottleService,
    );
  });

  it('opens a session for the right password', async () => {
    await expect(sut.login('ada@example.com', 'right password', '10.0.0.1')).resolves.toEqual(pair);
    expect(sessions.started).toEqual([7]);
    expect(throttle.failures).toBe(0);
  });

  it('counts a wrong password as a failure and answers 401', async () => {
    await expect(sut.login('ada@example.com', 'wrong', '10.0.0.1')).rejects.toThrow(
      new UnauthorizedException('Incorrect username or password'),
    );
    expect(throttle.failures).toBe(1);
    expect(sessions.started).toEqual([]);
  });

  it('tells an inactive user so only after the right password', async () => {
    users.account = user({ isActive: false });
    await expect(sut.login('ada@example.com', 'right password', '10.0.0.1')).rejects.toThrow(
      new BadRequestException('Inactive user'),
    );
    await expect(sut.login('ada@example.com', 'wrong', '10.0.0.1')).rejects.toBeInstanceOf(
      UnauthorizedException,
    );
  });

  it('checks the lockout before the password', async () => {
    throttle.locked = true;
    await expect(sut.login('ada@example.com', 'right password', '10.0.0.1')).rejects.toBeInstanceOf(
      TooManyRequestsException,
    );
    expect(sessions.started).toEqual([]);
  });

  it('refuses a rejected rotation, a deleted user and an inactive user', async () => {
    await expect(sut.refresh('token')).resolves.toEqual(pair);
    sessions.rotation = { outcome: 'rejected', userId: null };
    await expect(sut.refresh('token')).rejects.toThrow(new UnauthorizedException('Invalid refresh token'));
    sessions.rotation = { outcome: 'rejected', userId: 7 };
    await expect(sut.refresh('token')).rejects.toThrow(new UnauthorizedException('Invalid refresh token'));
    sessions.rotation = { outcome: 'rotated', userId: 7, tokens: pair };
    users.state = null;
    await expect(sut.refresh('token')).rejects.toBeInstanceOf(UnauthorizedException);
    users.state = { ...ADA, isActive: false };
    await expect(sut.refresh('token')).rejects.toThrow(new BadRequestException('Inactive user'));
    // Deactivation revoked the session; the inactive owner is still told why.
    sessions.rotation = { outcome: 'rejected', userId: 7 };
    await expect(sut.refresh('token')).rejects.toThrow(new BadRequestException('Inactive user'));
  });

  it("logout revokes the caller's session and a given refresh token's only when it is the caller's", async () => {
    sessions.ownerOf = {
      mine: { userId: 7, sessionId: 'other-session' },
      theirs: { userId: 8, sessionId: 'x' },
    };
    await sut.logout(7, 'current', 'mine');
    expect(sessions.revoked).toEqual(['current', 'other-session']);
    sessions.revoked = [];
    await sut.logout(7, 'current', 'theirs');
    expect(sessions.revoked).toEqual(['current']);
  });
});
