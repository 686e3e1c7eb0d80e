import { FakeLoginAttempts } from '../../../test/fakes/fake-login-attempts';
import { FakeSessions, TOKEN_PAIR as pair } from '../../../test/fakes/fake-sessions';
import { ADA, ADA_AUTH_STATE, FakeUsers } from '../../../test/fakes/fake-users';
import {
  RateLimitedError,
  RuleViolationError,
  UnauthenticatedError,
} from '../../common/errors/domain-errors';
import { AuthService } from './auth.service';

const CLIENT = { ip: '10.0.0.1', userAgent: 'Spec/1.0' };

describe('AuthService', () => {
  let users: FakeUsers;
  let sessions: FakeSessions;
  let throttle: FakeLoginAttempts;
  let sut: AuthService;

  beforeEach(() => {
    users = new FakeUsers();
    sessions = new FakeSessions();
    throttle = new FakeLoginAttempts();
    sut = new AuthService(users, sessions, throttle);
  });

  it('opens a session for the right password', async () => {
    await expect(sut.login('ada@example.com', 'right password', CLIENT)).resolves.toEqual(pair);
    expect(sessions.started).toEqual([7]);
    expect(throttle.failures).toBe(0);
  });

  it('counts a wrong password as a failure and answers 401', async () => {
    await expect(sut.login('ada@example.com', 'wrong', CLIENT)).rejects.toThrow(
      new UnauthenticatedError('Incorrect username or password'),
    );
    expect(throttle.failures).toBe(1);
    expect(sessions.started).toEqual([]);
  });

  it('tells an inactive user so only after the right password', async () => {
    users.account = { ...ADA, isActive: false };
    await expect(sut.login('ada@example.com', 'right password', CLIENT)).rejects.toThrow(
      new RuleViolationError('Inactive user'),
    );
    await expect(sut.login('ada@example.com', 'wrong', CLIENT)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('checks the lockout before the password', async () => {
    throttle.locked = true;
    await expect(sut.login('ada@example.com', 'right password', CLIENT)).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(sessions.started).toEqual([]);
  });

  it('refuses a rejected rotation, a deleted user and an inactive user', async () => {
    await expect(sut.refresh('token', CLIENT)).resolves.toEqual(pair);
    sessions.rotation = { outcome: 'rejected', userId: null };
    await expect(sut.refresh('token', CLIENT)).rejects.toThrow(
      new UnauthenticatedError('Invalid refresh token'),
    );
    sessions.rotation = { outcome: 'rejected', userId: 7 };
    await expect(sut.refresh('token', CLIENT)).rejects.toThrow(
      new UnauthenticatedError('Invalid refresh token'),
    );
    sessions.rotation = { outcome: 'rotated', userId: 7, tokens: pair };
    users.state = null;
    await expect(sut.refresh('token', CLIENT)).rejects.toBeInstanceOf(UnauthenticatedError);
    users.state = { ...ADA_AUTH_STATE, isActive: false };
    await expect(sut.refresh('token', CLIENT)).rejects.toThrow(new RuleViolationError('Inactive user'));
    // Deactivation revoked the session; the inactive owner is still told why.
    sessions.rotation = { outcome: 'rejected', userId: 7 };
    await expect(sut.refresh('token', CLIENT)).rejects.toThrow(new RuleViolationError('Inactive user'));
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
