import { Type } from '@nestjs/common';
import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ReferenceObject, SchemaObject } from '@nestjs/swagger';

export type Schema = SchemaObject | ReferenceObject;

/** Obviously fake values for examples: documentation must never show anything that looks like a real secret. */
export const EXAMPLE = {
  traceId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  adminId: '0b6a3c2e-1d4f-4a5b-9c8d-7e6f5a4b3c2d',
  userId: '3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f',
  otherUserId: '7d6c5b4a-3e2f-4a1b-8c9d-0e1f2a3b4c5d',
  groupId: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  resourceId: '5c4b3a29-1807-4f6e-8d5c-4b3a29180706',
  authenticatorId: '2a1b0c9d-8e7f-4a6b-9c5d-4e3f2a1b0c9d',
  requestId: '8f7e6d5c-4b3a-4291-8e7f-6d5c4b3a2918',
  apiKey: 'EXAMPLE-RESOURCE-KEY',
  apiSecret: 'EXAMPLE-NOT-A-REAL-SECRET',
  timestamp: '2026-05-19T08:30:00.000Z',
  later: '2026-05-19T09:30:00.000Z',
  day: '2026-05-19',
} as const;

/** `{message, traceId}`: errors of the administrator API, of unknown paths and of the unenveloped routes (CONTRACT §4). */
export class ErrorBody {
  @ApiProperty({ example: 'Administrator not found.' })
  message!: string;

  @ApiProperty({
    description: "the caller's `mf-trace-id` when it sent a valid one (CONTRACT §8.6), else a fresh UUID",
    example: EXAMPLE.traceId,
  })
  traceId!: string;
}

/** `{model: null, success: false, message, traceId}`: errors of the enveloped APIs (CONTRACT §4). */
export class EnvelopeErrorBody {
  @ApiProperty({ type: 'object', additionalProperties: false, nullable: true, example: null, description: 'always null on an error' })
  model!: null;

  @ApiProperty({ type: 'boolean', enum: [false], example: false })
  success!: false;

  @ApiProperty({ example: 'User not found.' })
  message!: string;

  @ApiProperty({ example: EXAMPLE.traceId })
  traceId!: string;
}

/** `{model, success, message}` around a model schema (SPEC.md "Response envelopes"). */
export function modelEnvelope(model: Schema | null): SchemaObject {
  return {
    type: 'object',
    required: ['model', 'success', 'message'],
    properties: {
      model: model ?? { type: 'object', nullable: true, description: 'null: the answer is in `message`' },
      success: { type: 'boolean' },
      message: { type: 'string', nullable: true },
    },
  };
}

/** `{data, offset, limit, totalElements}` (SPEC.md "Paged lists"). */
export function pagedOf(item: Schema): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'offset', 'limit', 'totalElements'],
    properties: {
      data: { type: 'array', items: item },
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
      totalElements: { type: 'integer', minimum: 0 },
    },
  };
}

const referenced = new Set<Type<unknown>>();

/** A reference to a schema class; the class is remembered so that the document defines it (`referencedModels`). */
export function ref(model: Type<unknown>): ReferenceObject {
  referenced.add(model);
  return { $ref: getSchemaPath(model) };
}

/** Every class `ref` was called with: decorators run at import, so this is complete once the controllers are loaded. */
export function referencedModels(): Type<unknown>[] {
  return [...referenced];
}

export function arrayOf(item: Schema): SchemaObject {
  return { type: 'array', items: item };
}

/** The paging query of every list (CONTRACT §4): offset default 0, limit default 100, at most 1000. */
export const PAGE_QUERY = [
  { name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } as SchemaObject, description: 'items to skip' },
  {
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } as SchemaObject,
    description: 'maximum items returned',
  },
];
