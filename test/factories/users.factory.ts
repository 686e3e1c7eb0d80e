import { DataSource } from 'typeorm';
import { TestApp } from '../setup/test-app';
import { asForm, typedApi } from '../support/typed-api';

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
  const api = typedApi(testApp);
  const registered = await api.POST('/api/v1/users/register', {
    body: { email, password, full_name: fullName },
  });
  if (!registered.data)
    throw new Error(`register failed: ${registered.response.status} ${JSON.stringify(registered.error)}`);
  return { ...(await login(testApp, email, password)), id: registered.data.id, email, password, fullName };
}

export async function login(testApp: TestApp, email: string, password: string) {
  const { response, data, error } = await typedApi(testApp).POST('/api/v1/auth/login', {
    body: { username: email, password },
    ...asForm,
  });
  if (!data) throw new Error(`login failed: ${response.status} ${JSON.stringify(error)}`);
  const { access_token, refresh_token } = data;
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
