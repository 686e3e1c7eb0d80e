// The slice of OpenAPI 3 the fuzz suite reads: every operation with its parameters, request body
// content types and schemas, $ref and single-entry allOf resolved.

export interface Schema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  enum?: unknown[];
  $ref?: string;
  allOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  example?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template, e.g. /api/v1/admin/users/{user_id}. */
  path: string;
  key: string;
  parameters: Parameter[];
  /** Content type → schema, empty when the operation takes no body. */
  body: Record<string, Schema>;
  secured: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: unknown[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = schemaResolver(document);
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const raw = item[method];
      return {
        method: method.toUpperCase() as Operation['method'],
        path,
        key: `${method.toUpperCase()} ${path}`,
        parameters: (raw.parameters ?? []).map((parameter) => ({
          ...parameter,
          schema: resolve(parameter.schema ?? {}),
        })),
        body: Object.fromEntries(
          Object.entries(raw.requestBody?.content ?? {}).map(([type, media]) => [
            type,
            resolve(media.schema ?? {}),
          ]),
        ),
        secured: (raw.security ?? []).length > 0,
      };
    }),
  );
}

/** Inlines $ref and single-entry allOf (how @nestjs/swagger wraps an enum reference), at any depth. */
function schemaResolver(document: OpenApiDocument): (schema: Schema) => Schema {
  const named = document.components?.schemas ?? {};
  const resolve = (schema: Schema, seen: string[]): Schema => {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      if (seen.includes(name)) return { type: 'object' };
      const { $ref: _ref, ...rest } = schema;
      return resolve({ ...named[name], ...rest }, [...seen, name]);
    }
    if (schema.allOf) {
      const { allOf, ...rest } = schema;
      return resolve(Object.assign({}, ...allOf, rest), seen);
    }
    return {
      ...schema,
      ...(schema.items ? { items: resolve(schema.items, seen) } : {}),
      ...(schema.properties
        ? {
            properties: Object.fromEntries(
              Object.entries(schema.properties).map(([name, property]) => [name, resolve(property, seen)]),
            ),
          }
        : {}),
    };
  };
  return (schema) => resolve(schema, []);
}
