import { FormEvent, useState } from 'react';
import { formBody } from '@investment-assistant/client';
import { api, ApiError, session, unwrap } from '../api';
import { Link, navigate } from '../router';
import { Field } from '../components/Field';

async function logIn(email: string, password: string, landing = '/dashboard'): Promise<void> {
  const tokens = await unwrap(
    api.POST('/api/v1/auth/login', {
      body: { username: email, password },
      bodySerializer: formBody,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    }),
  );
  session.signIn(tokens);
  navigate(landing);
}

export function LoginPage() {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await logIn(String(form.get('email')), String(form.get('password')));
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card auth">
      <h1>Log in</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Email" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        {error && (
          <p role="alert" className="error">
            {error.message}
          </p>
        )}
        <p className="hint" id="lockout-hint">
          After 10 wrong passwords for an account from this address within 15 minutes, logging in to it pauses
          until those 15 minutes are over; the message then says how long to wait.
        </p>
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
      <p>
        New here? <Link to="/signup">Create an account</Link>
      </p>
    </section>
  );
}

export function SignupPage() {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    setBusy(true);
    setError(null);
    try {
      await unwrap(
        api.POST('/api/v1/users/register', {
          body: { email, password, full_name: String(form.get('full_name')) },
        }),
      );
      await logIn(email, password, '/onboarding');
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const fields = error?.fieldErrors ?? {};
  return (
    <section className="card auth">
      <h1>Create an account</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Full name" name="full_name" autoComplete="name" required error={fields.full_name} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          error={fields.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          error={fields.password}
          hint="8 to 128 characters. Passwords that are easy to guess (common words, keyboard patterns, your name or email) are refused: a few unrelated words work well."
        />
        {error && Object.keys(fields).length === 0 && (
          <p role="alert" className="error">
            {error.message}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign up
        </button>
      </form>
      <p>
        Already registered? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
