import { DataSource } from 'typeorm';
import { TestApp } from '../setup/test-app';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  fullName: string;
  accessToken: string;
  refreshToken: string;
  headers: { authorization: string };
}

let sequence = 0;

export async function registerUser(
  testApp: TestApp,
  overrides: Partial<{ email: string; password: string; fullName: string }> = {},
): Promise<TestUser> {
  sequence += 1;
  const email = overrides.email ?? `user${sequence}-${Date.now()}@example.com`;
  const password = overrides.password ?? 'correct horse battery staple';
  const fullName = overrides.fullName ?? `Test User ${sequence}`;
  const registered = await testApp.inject({
    method: 'POST',
    url: '/api/v1/users/register',
    payload: { email, password, full_name: fullName },
  });
  if (registered.statusCode !== 200)
    throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
  return { ...(await login(testApp, email, password)), id: registered.json().id, email, password, fullName };
}

export async function login(testApp: TestApp, email: string, password: string) {
  const response = await testApp.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: `username=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const { access_token, refresh_token } = response.json();
  return {
    accessToken: access_token,
    refreshToken: refresh_token,
    headers: { authorization: `Bearer ${access_token}` },
  };
}

/** A registered user promoted to superuser directly in the database, then logged in. */
export async function createSuperuser(testApp: TestApp): Promise<TestUser> {
  const user = await registerUser(testApp);
  await testApp.app.get(DataSource).query('UPDATE users SET is_superuser = true WHERE id = $1', [user.id]);
  return { ...user, ...(await login(testApp, user.email, user.password)) };
}
