import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  SecurityRequirementObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  ERROR_SCHEMAS,
  SUPERUSER_ONLY_403,
  HTTP_ERROR_CONTENT,
  RESPONSE_HEADERS,
  STANDARD_ERROR_RESPONSES,
  VALIDATION_ERROR_CONTENT,
} from './error-responses';
import { RouteFacts } from './route-facts';

/** The methods whose body Fastify parses before any route code runs, whatever the route reads. */
const BODY_METHODS = ['post', 'put', 'patch'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Turns the document @nestjs/swagger builds from the decorators into the contract clients are
 * generated from. The statuses every operation shares are derived here, from the route's metadata
 * and its method, rather than declared route by route:
 * - security: `[]` on public routes, the bearer schemes elsewhere, with their 401 and the 403 of a
 *   deactivated user (and of a caller who is not a superuser, on superuser-only routes);
 * - 422 wherever a DTO or pipe validates input or a JSON body is parsed;
 * - 413 and 415 wherever a body is parsed;
 * - 500 everywhere.
 * Statuses a route declares itself (400, 404, 409, 429, 503...) keep their descriptions. Every
 * error response then gets its body schema (HTTPError, or HTTPValidationError for 422) and its
 * headers (WWW-Authenticate on 401, Retry-After on 429).
 */
export function applyContract(
  document: OpenAPIObject,
  facts: Map<string, RouteFacts>,
  protectedBy: SecurityRequirementObject[],
): OpenAPIObject {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...ERROR_SCHEMAS },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const routeFacts = facts.get(operation.operationId ?? '');
      if (!routeFacts) throw new Error(`No route metadata for ${method.toUpperCase()} ${path}`);
      completeOperation(operation, method, routeFacts, protectedBy);
    }
  }
  normalizeSchemas(document);
  return document;
}

function completeOperation(
  operation: OperationObject,
  method: string,
  facts: RouteFacts,
  protectedBy: SecurityRequirementObject[],
): void {
  const parsesBody = BODY_METHODS.includes(method);
  const derived: number[] = [500];
  if (facts.isPublic) {
    operation.security = [];
  } else {
    operation.security = protectedBy;
    derived.push(401, 403);
  }
  if (facts.validatesInput || parsesBody) derived.push(422);
  if (parsesBody) derived.push(413, 415);

  const responses = { ...operation.responses } as Record<string, ResponseObject | ReferenceObject>;
  for (const status of derived) {
    responses[status] ??= { ...STANDARD_ERROR_RESPONSES[status as keyof typeof STANDARD_ERROR_RESPONSES] };
  }
  if (facts.superuserOnly) responses[403] = { description: SUPERUSER_ONLY_403 };
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400 && !('$ref' in response)) completeErrorResponse(Number(status), response);
  }
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
}

function completeErrorResponse(status: number, response: ResponseObject): void {
  response.content ??= status === 422 ? VALIDATION_ERROR_CONTENT : HTTP_ERROR_CONTENT;
  const headers = RESPONSE_HEADERS[status];
  if (headers) response.headers = { ...headers, ...response.headers };
}

type Node = SchemaObject & ReferenceObject & Record<string, unknown>;

/**
 * @nestjs/swagger wraps a `$ref` in a one-item `allOf` so that it can carry `nullable` or a
 * description. Alone, the wrapper is just the reference; with `nullable`, OpenAPI 3.0 wants the
 * `type` beside it, which is the referenced schema's.
 */
function normalizeSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const node = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, visit(child)])) as Node;
    const only = node.allOf?.length === 1 ? (node.allOf[0] as ReferenceObject) : undefined;
    if (!only?.$ref) return node;
    if (Object.keys(node).length === 1) return only;
    if (node.nullable && !node.type) {
      const target = schemas[only.$ref.replace('#/components/schemas/', '')] as SchemaObject | undefined;
      if (target?.type) return { type: target.type, ...node };
    }
    return node;
  };
  document.paths = visit(document.paths) as OpenAPIObject['paths'];
  if (document.components?.schemas) {
    document.components.schemas = visit(document.components.schemas) as Record<string, SchemaObject>;
  }
}
