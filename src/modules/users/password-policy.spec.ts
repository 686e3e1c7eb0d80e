import { InvalidFieldError } from '../../common/errors/domain-errors';
import { PasswordPolicy, weakness } from './password-policy';

describe('password policy', () => {
  const sut = new PasswordPolicy();

  it.each([
    ['password', 'This is a heavily used password.'],
    ['12345678', 'This is a heavily used password.'],
    ['        ', 'Repeated characters like "aaa" are easy to guess.'],
    ['qwertyuiop', null],
    ['P@ssw0rd1', null],
    ['passwordpassword', 'Repeated character patterns like "abcabcabc" are easy to guess.'],
  ])('refuses %p', async (password, warning) => {
    const reason = await weakness(password);
    expect(reason).toMatch(/^Password is too easy to guess\./);
    if (warning) expect(reason).toContain(warning);
  });

  it.each(['correct horse battery staple', 'a much better passphrase', 'Tr0ub4dor&3x mango'])(
    'accepts %p without composition rules',
    async (password) => {
      await expect(weakness(password)).resolves.toBeNull();
    },
  );

  it('answers the same after the idle estimator was let go and loaded again', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      await expect(weakness('a much better passphrase')).resolves.toBeNull();
      jest.advanceTimersByTime(10 * 60_000);
      await expect(weakness('password')).resolves.toMatch(/heavily used password/);
      await expect(weakness('a much better passphrase')).resolves.toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  it("refuses the account's own email or name as the password", async () => {
    await expect(weakness('zanzibar.quillfeather')).resolves.toBeNull();
    const account = { email: 'zanzibar.quillfeather@example.com', fullName: 'Zanzibar Quillfeather' };
    await expect(
      sut.requireStrong('zanzibar.quillfeather', ['body', 'password'], account),
    ).rejects.toBeInstanceOf(InvalidFieldError);
  });

  it('reports the issue at the loc it is given', async () => {
    const error = await sut
      .requireStrong('iloveyou', ['body', 'new_password'], { email: 'a@example.com' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect((error as InvalidFieldError).issues).toEqual([
      {
        loc: ['body', 'new_password'],
        msg: expect.stringMatching(/^Value error, Password is too easy to guess\. /),
        type: 'value_error',
      },
    ]);
  });
});
