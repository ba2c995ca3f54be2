import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.0 document the checks read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

export interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

export interface DocumentedExample {
  where: string;
  schema: unknown;
  value: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function operationsOf(document: OpenApiDocument): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/**
 * OpenAPI 3.0 schema → JSON Schema (draft-07) for ajv: `nullable` becomes a `null` type (or an anyOf
 * for a schema without a type), and component references point into one schema registered as `components`.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref' && typeof value === 'string') converted[key] = value.replace('#/components/schemas/', 'components#/definitions/');
    else if (key === 'properties' || key === 'definitions')
      converted[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, toJsonSchema(sub)]));
    else if (key === 'example' || key === 'enum' || key === 'default' || key === 'required') converted[key] = value;
    else converted[key] = toJsonSchema(value);
  }
  if (nullable !== true) return converted;
  if (typeof converted['type'] === 'string') {
    const withNull: Record<string, unknown> = { ...converted, type: [converted['type'], 'null'] };
    if (Array.isArray(converted['enum'])) withNull['enum'] = [...converted['enum'], null];
    return withNull;
  }
  return { anyOf: [converted, { type: 'null' }] };
}

/** Every example of the document: request bodies, responses, and the `example` of each component schema's properties. */
export function examplesOf(document: OpenApiDocument): DocumentedExample[] {
  const found: DocumentedExample[] = [];
  const fromContent = (where: string, content: Record<string, MediaType> | undefined) => {
    for (const [mime, media] of Object.entries(content ?? {})) {
      if ('example' in media) found.push({ where: `${where} ${mime}`, schema: media.schema, value: media.example });
      for (const [name, example] of Object.entries(media.examples ?? {}))
        found.push({ where: `${where} ${mime} (${name})`, schema: media.schema, value: example.value });
    }
  };
  for (const { method, path, operation } of operationsOf(document)) {
    fromContent(`${method} ${path} request`, operation.requestBody?.content);
    for (const [status, response] of Object.entries(operation.responses)) fromContent(`${method} ${path} ${status}`, response.content);
  }
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    const properties = (schema as { properties?: Record<string, { example?: unknown }> }).properties ?? {};
    for (const [property, propertySchema] of Object.entries(properties)) {
      if ('example' in propertySchema) found.push({ where: `${name}.${property}`, schema: propertySchema, value: propertySchema.example });
    }
  }
  return found;
}

/** A validator for the document's schemas; `example` is OpenAPI's own keyword, anything else unknown is an error. */
export function schemaValidator(document: OpenApiDocument): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
  addFormats(ajv);
  ajv.addVocabulary(['example']);
  ajv.addSchema({ $id: 'components', definitions: toJsonSchema(document.components.schemas) as object });
  return (schema) => ajv.compile(toJsonSchema(schema) as object);
}
