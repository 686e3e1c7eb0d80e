import { FieldProblems } from '../../common/errors/field-problems';
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
    await expect(sut.requireStrong('zanzibar.quillfeather', ['password'], account)).rejects.toBeInstanceOf(
      FieldProblems,
    );
  });

  it('reports the problem at the path it is given', async () => {
    const error = await sut
      .requireStrong('iloveyou', ['new_password'], { email: 'a@example.com' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FieldProblems);
    expect((error as FieldProblems).problems).toEqual([
      { path: ['new_password'], message: expect.stringMatching(/^Password is too easy to guess\. /) },
    ]);
  });
});
