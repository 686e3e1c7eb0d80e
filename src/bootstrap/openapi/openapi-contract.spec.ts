import type { OpenAPIObject } from '@nestjs/swagger';
import { applyContract } from './openapi-contract';
import { RouteFacts } from './route-facts';

const PROTECTED = [{ bearer: [] }];
const facts = (overrides: Partial<RouteFacts>): RouteFacts => ({
  isPublic: false,
  superuserOnly: false,
  validatesInput: false,
  ...overrides,
});

function documentWith(method: string, responses: Record<string, object> = {}): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/x': { [method]: { operationId: 'X_op', responses: { 200: { description: 'ok' }, ...responses } } },
    },
    components: {
      schemas: {
        Level: { type: 'string', enum: ['a', 'b'] },
        Holder: {
          type: 'object',
          properties: {
            level: { allOf: [{ $ref: '#/components/schemas/Level' }] },
            maybe: { nullable: true, allOf: [{ $ref: '#/components/schemas/Level' }] },
            described: { description: 'kept', allOf: [{ $ref: '#/components/schemas/Level' }] },
          },
        },
      },
    },
  };
}

describe('applyContract', () => {
  it('derives the shared statuses of a protected, superuser-only POST that validates its body', () => {
    const sut = applyContract(
      documentWith('post'),
      new Map([['X_op', facts({ superuserOnly: true, validatesInput: true })]]),
      PROTECTED,
    );
    const operation = sut.paths['/x'].post!;
    expect(Object.keys(operation.responses)).toEqual(['200', '401', '403', '413', '415', '422', '500']);
    expect(operation.security).toEqual(PROTECTED);
    expect(operation.responses['422']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
    });
    expect(operation.responses['403']).toMatchObject({
      description: expect.stringContaining('`Forbidden - Admin access required`'),
    });
    expect(operation.responses['401']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
      headers: { 'WWW-Authenticate': expect.any(Object) },
    });
  });

  it('gives every protected route the 403 of a deactivated user, and no 422 when nothing is validated', () => {
    const sut = applyContract(documentWith('get'), new Map([['X_op', facts({})]]), PROTECTED);
    const responses = sut.paths['/x'].get!.responses;
    expect(Object.keys(responses)).toEqual(['200', '401', '403', '500']);
    expect(responses['403']).toMatchObject({ description: expect.stringContaining('`Inactive user`') });
  });

  it('gives a public GET without input `security: []` and only the 500', () => {
    const sut = applyContract(documentWith('get'), new Map([['X_op', facts({ isPublic: true })]]), PROTECTED);
    expect(sut.paths['/x'].get!.security).toEqual([]);
    expect(Object.keys(sut.paths['/x'].get!.responses)).toEqual(['200', '500']);
  });

  it("keeps a route's own description and adds the body schema and Retry-After", () => {
    const sut = applyContract(
      documentWith('get', { 429: { description: 'slow down' }, 404: { description: '`Stock X not found`' } }),
      new Map([['X_op', facts({})]]),
      PROTECTED,
    );
    const responses = sut.paths['/x'].get!.responses;
    expect(responses['404']).toEqual({
      description: '`Stock X not found`',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
    });
    expect(responses['429']).toMatchObject({
      description: 'slow down',
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
    });
  });

  it('unwraps a lone allOf and types a nullable one after its target', () => {
    const sut = applyContract(documentWith('get'), new Map([['X_op', facts({})]]), PROTECTED);
    expect(sut.components!.schemas!.Holder).toMatchObject({
      properties: {
        level: { $ref: '#/components/schemas/Level' },
        maybe: { type: 'string', nullable: true, allOf: [{ $ref: '#/components/schemas/Level' }] },
        described: { description: 'kept', allOf: [{ $ref: '#/components/schemas/Level' }] },
      },
    });
  });

  it('refuses an operation whose route it cannot find', () => {
    expect(() => applyContract(documentWith('get'), new Map(), PROTECTED)).toThrow(
      'No route metadata for GET /x',
    );
  });
});
