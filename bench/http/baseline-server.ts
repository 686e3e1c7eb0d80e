// The bare baseline of the HTTP benchmark: Fastify answering a /auth/me-like JSON after verifying
// the same HS256 access token the service issued (jsonwebtoken with the secret as a KeyObject,
// signature, algorithm and expiry checked). Nothing else: no logging, no headers, no database.
import Fastify from 'fastify';
import jwt from 'jsonwebtoken';
import { createSecretKey } from 'node:crypto';

const port = Number(process.env.PORT);
const key = createSecretKey(Buffer.from(process.env.SECRET_KEY ?? '', 'utf8'));
const app = Fastify({ logger: false });

app.get('/api/v1/auth/me', async (request, reply) => {
  const header = request.headers.authorization ?? '';
  try {
    const claims = jwt.verify(header.slice('Bearer '.length), key, { algorithms: ['HS256'] });
    if (typeof claims === 'string' || claims.type !== 'access') throw new Error('not an access token');
    return {
      id: Number(claims.sub),
      email: 'bench@example.com',
      full_name: 'Bench User',
      is_active: true,
      is_superuser: false,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: null,
    };
  } catch {
    return reply.code(401).send({ detail: 'Could not validate credentials' });
  }
});

app.listen({ port, host: '127.0.0.1' }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
