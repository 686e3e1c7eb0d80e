import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api';
import { Field } from '../components/Field';
import { QueryStatus } from '../components/Status';

/** Whether the signed-in user may administer users: the list answers them and 403s anyone else. */
export function useIsAdmin(): boolean {
  const probe = useQuery({
    queryKey: ['is-admin'],
    queryFn: async () => {
      const { response } = await api.GET('/api/v1/admin/users', { params: { query: { limit: 1 } } });
      return response.ok;
    },
    staleTime: Infinity,
    retry: false,
  });
  return probe.data === true;
}

/** Superusers only: every account, create one, deactivate or reactivate, grant or revoke admin. */
export function AdminUsersPage() {
  const users = useQuery({
    queryKey: ['admin-users'],
    queryFn: () => unwrap(api.GET('/api/v1/admin/users', { params: { query: { limit: 100 } } })),
  });
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin-users'] });
  const setActive = useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      unwrap(
        api.PATCH(
          active ? '/api/v1/admin/users/{user_id}/activate' : '/api/v1/admin/users/{user_id}/deactivate',
          {
            params: { path: { user_id: id } },
          },
        ),
      ),
    onSuccess: refresh,
  });
  const setAdmin = useMutation({
    mutationFn: ({ id, admin }: { id: number; admin: boolean }) =>
      unwrap(
        api.PUT('/api/v1/admin/users/{user_id}', {
          params: { path: { user_id: id } },
          body: { is_superuser: admin },
        }),
      ),
    onSuccess: refresh,
  });
  const create = useMutation({
    mutationFn: (body: { email: string; full_name: string; password: string; is_superuser: boolean }) =>
      unwrap(api.POST('/api/v1/admin/users', { body })),
    onSuccess: refresh,
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate(
      {
        email: String(form.get('email')),
        full_name: String(form.get('full_name')),
        password: String(form.get('password')),
        is_superuser: form.get('is_superuser') === 'on',
      },
      { onSuccess: () => (event.target as HTMLFormElement).reset() },
    );
  };
  const failure = setActive.error ?? setAdmin.error;

  return (
    <>
      <h1>Users</h1>
      <section className="card" aria-labelledby="create-user-heading">
        <h2 id="create-user-heading">Create a user</h2>
        <form onSubmit={submit} noValidate className="grid-form">
          <Field label="Email" name="email" type="email" autoComplete="off" error={fields.email} />
          <Field label="Full name" name="full_name" autoComplete="off" error={fields.full_name} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            error={fields.password}
          />
          <div className="field checkbox">
            <input id="new-user-admin" name="is_superuser" type="checkbox" />
            <label htmlFor="new-user-admin">Administrator</label>
          </div>
          {create.error && Object.keys(fields).length === 0 && (
            <p role="alert" className="error">
              {create.error.message}
            </p>
          )}
          <button type="submit" disabled={create.isPending}>
            Create
          </button>
        </form>
      </section>
      <section className="card" aria-labelledby="users-heading">
        <h2 id="users-heading">Accounts</h2>
        {failure && (
          <p role="alert" className="error">
            {failure.message}
          </p>
        )}
        {!users.data ? (
          <QueryStatus error={users.error} retry={() => void users.refetch()} />
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Role</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((user) => (
                  <tr key={user.id}>
                    <th scope="row">{user.email}</th>
                    <td>{user.full_name}</td>
                    <td>{user.is_active ? 'active' : 'deactivated'}</td>
                    <td>{user.is_superuser ? 'administrator' : 'user'}</td>
                    <td className="actions">
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`${user.is_active ? 'Deactivate' : 'Activate'} ${user.email}`}
                        onClick={() => setActive.mutate({ id: user.id, active: !user.is_active })}
                      >
                        {user.is_active ? 'Deactivate' : 'Activate'}
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`${user.is_superuser ? 'Revoke administrator from' : 'Make administrator'} ${user.email}`}
                        onClick={() => setAdmin.mutate({ id: user.id, admin: !user.is_superuser })}
                      >
                        {user.is_superuser ? 'Revoke admin' : 'Make admin'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
