import { DataSource } from 'typeorm';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';
import type { ApiClient } from '../../client';

describe('admin users (spec 4.6)', () => {
  let sut: TestApp;
  let admin: TestUser;
  let api: ApiClient;
  let asAdmin: ApiClient;

  beforeAll(async () => {
    sut = await createTestApp();
    admin = await createSuperuser(sut);
    api = typedApi(sut);
    asAdmin = typedApi(sut, admin);
  });
  const userPath = (user_id: number) => ({ params: { path: { user_id } } });
  const meStatus = async (headers: Record<string, string>) =>
    (await api.GET('/api/v1/auth/me', { headers })).response.status;
  afterAll(() => sut.close());

  const adminUser = {
    id: expect.any(Number),
    email: expect.any(String),
    full_name: expect.any(String),
    is_active: expect.any(Boolean),
    is_superuser: expect.any(Boolean),
    created_at: expect.any(String),
  };

  it('refuses non-superusers with 403 and anonymous callers with 401', async () => {
    const user = await registerUser(sut);
    const forbidden = await api.GET('/api/v1/admin/users', { headers: user.headers });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.error).toEqual({ detail: 'Forbidden - Admin access required' });
    const anonymous = await api.GET('/api/v1/admin/users');
    expect(anonymous.response.status).toBe(401);
  });

  it('creates a user with 201, defaults is_active true and is_superuser false', async () => {
    const { response, data } = await asAdmin.POST('/api/v1/admin/users', {
      body: { email: 'New.Hire@Example.com', password: 'welcome aboard', full_name: 'New Hire' },
    });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      ...adminUser,
      email: 'new.hire@example.com',
      full_name: 'New Hire',
      is_active: true,
      is_superuser: false,
      updated_at: null,
    });
    const duplicate = await asAdmin.POST('/api/v1/admin/users', {
      body: { email: 'new.hire@example.com', password: 'welcome aboard', full_name: 'Again' },
    });
    expect(duplicate.response.status).toBe(400);
    expect(duplicate.error).toEqual({ detail: 'Email already registered' });
  });

  it('creates with explicit flags and validates them', async () => {
    const { data } = await asAdmin.POST('/api/v1/admin/users', {
      body: {
        email: 'ops@example.com',
        password: 'plenty long passphrase',
        full_name: 'Ops',
        is_active: false,
        is_superuser: true,
      },
    });
    expect(data).toMatchObject({ is_active: false, is_superuser: true });
    // A flag of the wrong type: a body the typed client refuses to build.
    const invalid = await sut.inject({
      method: 'POST',
      url: '/api/v1/admin/users/',
      headers: admin.headers,
      payload: {
        email: 'x@example.com',
        password: 'plenty long passphrase',
        full_name: 'X',
        is_active: 'maybe',
      },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail[0]).toMatchObject({ loc: ['body', 'is_active'], type: 'bool_parsing' });
  });

  it('lists users ordered by id with skip and limit', async () => {
    for (let index = 0; index < 3; index += 1) await registerUser(sut);
    const all = (await asAdmin.GET('/api/v1/admin/users')).data ?? [];
    const ids = all.map((user) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(all[0]).toEqual({ ...adminUser, updated_at: null });
    const page = await asAdmin.GET('/api/v1/admin/users', { params: { query: { skip: 1, limit: 2 } } });
    expect(page.data?.map((user) => user.id)).toEqual(ids.slice(1, 3));
  });

  it.each([
    [{ limit: '0' }, 'limit', 'greater_than_equal'],
    [{ limit: '1001' }, 'limit', 'less_than_equal'],
    [{ limit: 'ten' }, 'limit', 'int_parsing'],
    [{ skip: '-1' }, 'skip', 'greater_than_equal'],
    [{ limit: '' }, 'limit', 'int_parsing'],
    [{ skip: '' }, 'skip', 'int_parsing'],
  ])('answers 422 for %j', async (query, field, type) => {
    // Query strings as sent, non-numbers and empty values among them: the typed client takes numbers.
    const response = await sut.inject({ url: '/api/v1/admin/users/', query, headers: admin.headers });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
  });

  it('accepts limit 1 and 1000', async () => {
    for (const limit of [1, 1000]) {
      const { response } = await asAdmin.GET('/api/v1/admin/users', { params: { query: { limit } } });
      expect(response.status).toBe(200);
    }
  });

  it('gets one user, 404 for a missing one, 422 for a non-integer id', async () => {
    const user = await registerUser(sut);
    const found = await asAdmin.GET('/api/v1/admin/users/{user_id}', userPath(user.id));
    expect(found.data).toMatchObject({ id: user.id, email: user.email, is_superuser: false });
    for (const id of [999999, 0, -5, 99999999999]) {
      const missing = await asAdmin.GET('/api/v1/admin/users/{user_id}', userPath(id));
      expect(missing.response.status).toBe(404);
      expect(missing.error).toEqual({ detail: 'User not found' });
    }
    // A non-integer id: a path the typed client refuses to build.
    const invalid = await sut.inject({ url: '/api/v1/admin/users/abc', headers: admin.headers });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail[0]).toMatchObject({ loc: ['path', 'user_id'], type: 'int_parsing' });
  });

  it('updates any subset, refreshes updated_at, and refuses an email used by another user', async () => {
    const user = await registerUser(sut);
    const other = await registerUser(sut);
    const renamed = await asAdmin.PUT('/api/v1/admin/users/{user_id}', {
      ...userPath(user.id),
      body: { full_name: 'Renamed' },
    });
    expect(renamed.response.status).toBe(200);
    expect(renamed.data).toMatchObject({
      full_name: 'Renamed',
      email: user.email,
      updated_at: expect.any(String),
    });
    const clash = await asAdmin.PUT('/api/v1/admin/users/{user_id}', {
      ...userPath(user.id),
      body: { email: other.email.toUpperCase() },
    });
    expect(clash.response.status).toBe(400);
    expect(clash.error).toEqual({ detail: 'Email already in use by another user' });
    const same = await asAdmin.PUT('/api/v1/admin/users/{user_id}', {
      ...userPath(user.id),
      body: { email: user.email },
    });
    expect(same.response.status).toBe(200);
    const missing = await asAdmin.PUT('/api/v1/admin/users/{user_id}', { ...userPath(999999), body: {} });
    expect(missing.response.status).toBe(404);
  });

  it.each([
    ['email', 'Input should be a valid string', 'string_type'],
    ['full_name', 'Input should be a valid string', 'string_type'],
    ['password', 'Input should be a valid string', 'string_type'],
    ['is_active', 'Input should be a valid boolean', 'bool_type'],
    ['is_superuser', 'Input should be a valid boolean', 'bool_type'],
  ])('PUT with %s null is a 422 at that field and changes nothing', async (field, msg, type) => {
    const user = await registerUser(sut);
    const before = await asAdmin.GET('/api/v1/admin/users/{user_id}', userPath(user.id));

    // A null field: a body the typed client refuses to build.
    const response = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { [field]: null },
    });

    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [{ loc: ['body', field], msg, type }] });
    const after = await asAdmin.GET('/api/v1/admin/users/{user_id}', userPath(user.id));
    expect(after.data).toEqual(before.data);
  });

  it('documents every PUT field as optional and the create fields as required', async () => {
    // The OpenAPI document itself is not one of its own operations.
    const schemas = (await sut.inject({ url: '/openapi.json' })).json().components.schemas;

    expect(schemas.UpdateAdminUserDto.required).toBeUndefined();
    expect(schemas.CreateAdminUserDto.required).toEqual(['email', 'password', 'full_name']);
  });

  it('POST with a null flag is a 422 at that field', async () => {
    // A null flag: a body the typed client refuses to build.
    const response = await sut.inject({
      method: 'POST',
      url: '/api/v1/admin/users/',
      headers: admin.headers,
      payload: {
        email: 'null.flag@example.com',
        password: 'welcome aboard',
        full_name: 'N',
        is_active: null,
      },
    });

    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [{ loc: ['body', 'is_active'], msg: 'Input should be a valid boolean', type: 'bool_type' }],
    });
  });

  it('PUT with a new password lets the user log in with it', async () => {
    const user = await registerUser(sut);
    await asAdmin.PUT('/api/v1/admin/users/{user_id}', {
      ...userPath(user.id),
      body: { password: 'a brand new password' },
    });
    await expect(login(sut, user.email, 'a brand new password')).resolves.toHaveProperty('accessToken');
  });

  it('deactivation blocks login (400) and protected calls (403) at once; activation allows a new login', async () => {
    const user = await registerUser(sut);
    expect(await meStatus(user.headers)).toBe(200);
    const deactivated = await asAdmin.PATCH('/api/v1/admin/users/{user_id}/deactivate', userPath(user.id));
    expect(deactivated.response.status).toBe(200);
    expect(deactivated.data).toMatchObject({
      id: user.id,
      is_active: false,
      updated_at: expect.any(String),
    });
    const me = await api.GET('/api/v1/auth/me', { headers: user.headers });
    expect(me.response.status).toBe(403);
    expect(me.error).toEqual({ detail: 'Inactive user' });
    await expect(login(sut, user.email, user.password)).rejects.toThrow(
      'login failed: 400 {"detail":"Inactive user"}',
    );
    const activated = await asAdmin.PATCH('/api/v1/admin/users/{user_id}/activate', userPath(user.id));
    expect(activated.data).toMatchObject({ is_active: true });
    // Deactivation ended the user's sessions: the old token stays dead, a new login works.
    expect(await meStatus(user.headers)).toBe(401);
    const again = await login(sut, user.email, user.password);
    expect(await meStatus(again.headers)).toBe(200);
  });

  it('PUT is_active false also takes effect at once', async () => {
    const user = await registerUser(sut);
    await meStatus(user.headers);
    await asAdmin.PUT('/api/v1/admin/users/{user_id}', { ...userPath(user.id), body: { is_active: false } });
    expect(await meStatus(user.headers)).toBe(403);
  });

  it('refuses to deactivate or delete your own account', async () => {
    const deactivate = await asAdmin.PATCH('/api/v1/admin/users/{user_id}/deactivate', userPath(admin.id));
    expect(deactivate.response.status).toBe(400);
    expect(deactivate.error).toEqual({ detail: 'Cannot deactivate your own account' });
    const remove = await asAdmin.DELETE('/api/v1/admin/users/{user_id}', userPath(admin.id));
    expect(remove.response.status).toBe(400);
    expect(remove.error).toEqual({ detail: 'Cannot delete your own account' });
  });

  it('deletes permanently: 200 with a message, then 404, and the tokens stop working', async () => {
    const user = await registerUser(sut);
    const { response, data } = await asAdmin.DELETE('/api/v1/admin/users/{user_id}', userPath(user.id));
    expect(response.status).toBe(200);
    expect(data).toEqual({ message: expect.any(String) });
    const [{ count }] = await sut.app
      .get(DataSource)
      .query('SELECT count(*)::int AS count FROM users WHERE id = $1', [user.id]);
    expect(count).toBe(0);
    expect((await asAdmin.DELETE('/api/v1/admin/users/{user_id}', userPath(user.id))).response.status).toBe(
      404,
    );
    expect(await meStatus(user.headers)).toBe(401);
  });

  it('answers 404 for activate and deactivate of a missing user', async () => {
    for (const { response, error } of [
      await asAdmin.PATCH('/api/v1/admin/users/{user_id}/activate', userPath(999999)),
      await asAdmin.PATCH('/api/v1/admin/users/{user_id}/deactivate', userPath(999999)),
    ]) {
      expect(response.status).toBe(404);
      expect(error).toEqual({ detail: 'User not found' });
    }
  });

  it('a demoted superuser loses admin access at once', async () => {
    const second = await createSuperuser(sut);
    const listStatus = async () =>
      (await api.GET('/api/v1/admin/users', { headers: second.headers })).response.status;
    expect(await listStatus()).toBe(200);
    await asAdmin.PUT('/api/v1/admin/users/{user_id}', {
      ...userPath(second.id),
      body: { is_superuser: false },
    });
    expect(await listStatus()).toBe(403);
  });
});

describe('the last active superuser', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('cannot be demoted, deactivated or deleted by another admin path', async () => {
    const first = await createSuperuser(sut);
    const second = await createSuperuser(sut);
    const asSecond = typedApi(sut, second);
    const demoteFirst = await asSecond.PUT('/api/v1/admin/users/{user_id}', {
      params: { path: { user_id: first.id } },
      body: { is_superuser: false },
    });
    expect(demoteFirst.response.status).toBe(200);
    const demoteSelf = await asSecond.PUT('/api/v1/admin/users/{user_id}', {
      params: { path: { user_id: second.id } },
      body: { is_superuser: false },
    });
    expect(demoteSelf.response.status).toBe(400);
    expect(demoteSelf.error).toEqual({
      detail: 'Cannot remove superuser status from the last active superuser',
    });
    const [{ count }] = await sut.app
      .get(DataSource)
      .query('SELECT count(*)::int AS count FROM users WHERE is_superuser AND is_active');
    expect(count).toBe(1);
  });
});
