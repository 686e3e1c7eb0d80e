import { DataSource } from 'typeorm';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

describe('admin users (spec 4.6)', () => {
  let sut: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    sut = await createTestApp();
    admin = await createSuperuser(sut);
  });
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
    const forbidden = await sut.inject({ url: '/api/v1/admin/users/', headers: user.headers });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: 'Forbidden - Admin access required' });
    const anonymous = await sut.inject({ url: '/api/v1/admin/users/' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('creates a user with 201, defaults is_active true and is_superuser false', async () => {
    const response = await sut.inject({
      method: 'POST',
      url: '/api/v1/admin/users/',
      headers: admin.headers,
      payload: { email: 'New.Hire@Example.com', password: 'welcome aboard', full_name: 'New Hire' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      ...adminUser,
      email: 'new.hire@example.com',
      full_name: 'New Hire',
      is_active: true,
      is_superuser: false,
      updated_at: null,
    });
    const duplicate = await sut.inject({
      method: 'POST',
      url: '/api/v1/admin/users/',
      headers: admin.headers,
      payload: { email: 'new.hire@example.com', password: 'welcome aboard', full_name: 'Again' },
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toEqual({ detail: 'Email already registered' });
  });

  it('creates with explicit flags and validates them', async () => {
    const response = await sut.inject({
      method: 'POST',
      url: '/api/v1/admin/users/',
      headers: admin.headers,
      payload: {
        email: 'ops@example.com',
        password: 'plenty long passphrase',
        full_name: 'Ops',
        is_active: false,
        is_superuser: true,
      },
    });
    expect(response.json()).toMatchObject({ is_active: false, is_superuser: true });
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
    const all = (await sut.inject({ url: '/api/v1/admin/users/', headers: admin.headers })).json();
    const ids = all.map((user: { id: number }) => user.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(all[0]).toEqual({ ...adminUser, updated_at: null });
    const page = await sut.inject({
      url: '/api/v1/admin/users/',
      query: { skip: '1', limit: '2' },
      headers: admin.headers,
    });
    expect(page.json().map((user: { id: number }) => user.id)).toEqual(ids.slice(1, 3));
  });

  it.each([
    [{ limit: '0' }, 'limit', 'greater_than_equal'],
    [{ limit: '1001' }, 'limit', 'less_than_equal'],
    [{ limit: 'ten' }, 'limit', 'int_parsing'],
    [{ skip: '-1' }, 'skip', 'greater_than_equal'],
    [{ limit: '' }, 'limit', 'int_parsing'],
    [{ skip: '' }, 'skip', 'int_parsing'],
  ])('answers 422 for %j', async (query, field, type) => {
    const response = await sut.inject({ url: '/api/v1/admin/users/', query, headers: admin.headers });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
  });

  it('accepts limit 1 and 1000', async () => {
    for (const limit of ['1', '1000']) {
      const response = await sut.inject({
        url: '/api/v1/admin/users/',
        query: { limit },
        headers: admin.headers,
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('gets one user, 404 for a missing one, 422 for a non-integer id', async () => {
    const user = await registerUser(sut);
    const found = await sut.inject({ url: `/api/v1/admin/users/${user.id}`, headers: admin.headers });
    expect(found.json()).toMatchObject({ id: user.id, email: user.email, is_superuser: false });
    for (const id of ['999999', '0', '-5', '99999999999']) {
      const missing = await sut.inject({ url: `/api/v1/admin/users/${id}`, headers: admin.headers });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'User not found' });
    }
    const invalid = await sut.inject({ url: '/api/v1/admin/users/abc', headers: admin.headers });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail[0]).toMatchObject({ loc: ['path', 'user_id'], type: 'int_parsing' });
  });

  it('updates any subset, refreshes updated_at, and refuses an email used by another user', async () => {
    const user = await registerUser(sut);
    const other = await registerUser(sut);
    const renamed = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { full_name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      full_name: 'Renamed',
      email: user.email,
      updated_at: expect.any(String),
    });
    const clash = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { email: other.email.toUpperCase() },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toEqual({ detail: 'Email already in use by another user' });
    const same = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { email: user.email },
    });
    expect(same.statusCode).toBe(200);
    const missing = await sut.inject({
      method: 'PUT',
      url: '/api/v1/admin/users/999999',
      headers: admin.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);
  });

  it.each([
    ['email', 'Input should be a valid string', 'string_type'],
    ['full_name', 'Input should be a valid string', 'string_type'],
    ['password', 'Input should be a valid string', 'string_type'],
    ['is_active', 'Input should be a valid boolean', 'bool_type'],
    ['is_superuser', 'Input should be a valid boolean', 'bool_type'],
  ])('PUT with %s null is a 422 at that field and changes nothing', async (field, msg, type) => {
    const user = await registerUser(sut);
    const before = await sut.inject({ url: `/api/v1/admin/users/${user.id}`, headers: admin.headers });

    const response = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { [field]: null },
    });

    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [{ loc: ['body', field], msg, type }] });
    const after = await sut.inject({ url: `/api/v1/admin/users/${user.id}`, headers: admin.headers });
    expect(after.json()).toEqual(before.json());
  });

  it('documents every PUT field as optional and the create fields as required', async () => {
    const schemas = (await sut.inject({ url: '/openapi.json' })).json().components.schemas;

    expect(schemas.UpdateAdminUserDto.required).toBeUndefined();
    expect(schemas.CreateAdminUserDto.required).toEqual(['email', 'password', 'full_name']);
  });

  it('POST with a null flag is a 422 at that field', async () => {
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
    await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { password: 'a brand new password' },
    });
    await expect(login(sut, user.email, 'a brand new password')).resolves.toHaveProperty('accessToken');
  });

  it('deactivation blocks login (400) and protected calls (403) at once; activation allows a new login', async () => {
    const user = await registerUser(sut);
    expect((await sut.inject({ url: '/api/v1/auth/me', headers: user.headers })).statusCode).toBe(200);
    const deactivated = await sut.inject({
      method: 'PATCH',
      url: `/api/v1/admin/users/${user.id}/deactivate`,
      headers: admin.headers,
    });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json()).toMatchObject({
      id: user.id,
      is_active: false,
      updated_at: expect.any(String),
    });
    const me = await sut.inject({ url: '/api/v1/auth/me', headers: user.headers });
    expect(me.statusCode).toBe(403);
    expect(me.json()).toEqual({ detail: 'Inactive user' });
    await expect(login(sut, user.email, user.password)).rejects.toThrow(
      'login failed: 400 {"detail":"Inactive user"}',
    );
    const activated = await sut.inject({
      method: 'PATCH',
      url: `/api/v1/admin/users/${user.id}/activate`,
      headers: admin.headers,
    });
    expect(activated.json()).toMatchObject({ is_active: true });
    // Deactivation ended the user's sessions: the old token stays dead, a new login works.
    expect((await sut.inject({ url: '/api/v1/auth/me', headers: user.headers })).statusCode).toBe(401);
    const again = await login(sut, user.email, user.password);
    expect((await sut.inject({ url: '/api/v1/auth/me', headers: again.headers })).statusCode).toBe(200);
  });

  it('PUT is_active false also takes effect at once', async () => {
    const user = await registerUser(sut);
    await sut.inject({ url: '/api/v1/auth/me', headers: user.headers });
    await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { is_active: false },
    });
    expect((await sut.inject({ url: '/api/v1/auth/me', headers: user.headers })).statusCode).toBe(403);
  });

  it('refuses to deactivate or delete your own account', async () => {
    const deactivate = await sut.inject({
      method: 'PATCH',
      url: `/api/v1/admin/users/${admin.id}/deactivate`,
      headers: admin.headers,
    });
    expect(deactivate.statusCode).toBe(400);
    expect(deactivate.json()).toEqual({ detail: 'Cannot deactivate your own account' });
    const remove = await sut.inject({
      method: 'DELETE',
      url: `/api/v1/admin/users/${admin.id}`,
      headers: admin.headers,
    });
    expect(remove.statusCode).toBe(400);
    expect(remove.json()).toEqual({ detail: 'Cannot delete your own account' });
  });

  it('deletes permanently: 200 with a message, then 404, and the tokens stop working', async () => {
    const user = await registerUser(sut);
    const response = await sut.inject({
      method: 'DELETE',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: expect.any(String) });
    const [{ count }] = await sut.app
      .get(DataSource)
      .query('SELECT count(*)::int AS count FROM users WHERE id = $1', [user.id]);
    expect(count).toBe(0);
    expect(
      (await sut.inject({ method: 'DELETE', url: `/api/v1/admin/users/${user.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
    expect((await sut.inject({ url: '/api/v1/auth/me', headers: user.headers })).statusCode).toBe(401);
  });

  it('answers 404 for activate and deactivate of a missing user', async () => {
    for (const action of ['activate', 'deactivate']) {
      const response = await sut.inject({
        method: 'PATCH',
        url: `/api/v1/admin/users/999999/${action}`,
        headers: admin.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'User not found' });
    }
  });

  it('a demoted superuser loses admin access at once', async () => {
    const second = await createSuperuser(sut);
    expect((await sut.inject({ url: '/api/v1/admin/users/', headers: second.headers })).statusCode).toBe(200);
    await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${second.id}`,
      headers: admin.headers,
      payload: { is_superuser: false },
    });
    expect((await sut.inject({ url: '/api/v1/admin/users/', headers: second.headers })).statusCode).toBe(403);
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
    const demoteFirst = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${first.id}`,
      headers: second.headers,
      payload: { is_superuser: false },
    });
    expect(demoteFirst.statusCode).toBe(200);
    const demoteSelf = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${second.id}`,
      headers: second.headers,
      payload: { is_superuser: false },
    });
    expect(demoteSelf.statusCode).toBe(400);
    expect(demoteSelf.json()).toEqual({
      detail: 'Cannot remove superuser status from the last active superuser',
    });
    const [{ count }] = await sut.app
      .get(DataSource)
      .query('SELECT count(*)::int AS count FROM users WHERE is_superuser AND is_active');
    expect(count).toBe(1);
  });
});
