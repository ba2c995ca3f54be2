import { gzipSync } from 'node:zlib';
import * as fc from 'fast-check';

/**
 * Requests for the fuzz run, built from the OpenAPI document: bodies follow the documented schema and
 * are then spoiled (wrong types, null, deep nesting, huge strings, odd key casing, duplicate keys,
 * text PostgreSQL cannot store), and so are query strings, path ids, content types and encodings.
 */

/** A JSON object as a list of entries, so one body can carry `Identity` and `IDENTITY` both. */
export class JsonObject {
  constructor(readonly entries: [string, Json][]) {}
}

/** JSON text written as it is: numbers no JS value serializes to (`1e400`, `-0`, 30 digits). */
export class JsonRaw {
  constructor(readonly text: string) {}
}

export type Json = null | boolean | number | string | Json[] | JsonObject | JsonRaw;

export function toJsonText(value: Json): string {
  if (value instanceof JsonRaw) return value.text;
  if (value instanceof JsonObject) return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  // JSON.stringify writes a lone surrogate as a `\ud800` escape, which is what a hostile client sends
  return JSON.stringify(value) ?? 'null';
}

export interface FuzzIds {
  /** ids of the caller's own objects: they get a request past the 404 into the handler's checks */
  own: string[];
  /** ids of the other account's objects: never to be found, changed or shown */
  foreign: string[];
}

export interface SchemaDocument {
  components: { schemas: Record<string, unknown> };
}

type Schema = Record<string, unknown>;

const MIB = 1024 * 1024;

/** Characters that broke something somewhere: NUL, lone surrogates, bidi marks, BOM, astral and case-folding letters. */
const HOSTILE_CHARS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\u200f',
  '\u061c',
  '\ufeff',
  '\u0085',
  '\u2028',
  '\u00a0',
  '😀',
  '𝕏',
  '\u{10ffff}',
  'İ',
  'ı',
  'ß',
  'ǅ',
  'K',
  '\r\n',
  '\t',
  '"',
  '\\',
  '%',
  '%00',
  '<script>',
  "'",
  '`',
  '${x}',
  '../',
  '*',
  '_',
  ':',
  '@',
];

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...HOSTILE_CHARS), fc.string({ maxLength: 3 })), { maxLength: 6 })
      .map((parts) => parts.join('')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(255, 256, 1000, 2049, 10_000).chain((n) => fc.constantFrom('a'.repeat(n), 'é'.repeat(n), '😀'.repeat(n))),
  },
);

function idText(ids: FuzzIds): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids.own) },
    { weight: 3, arbitrary: fc.constantFrom(...ids.foreign) },
    { weight: 1, arbitrary: fc.constantFrom(...ids.foreign).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileText },
  );
}

/** `Identity` as `identity`, `IDENTITY`, `iDeNtItY`: input field names are matched in any case. */
function keyCasing(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(name) },
    { weight: 1, arbitrary: fc.constant(name.toLowerCase()) },
    { weight: 1, arbitrary: fc.constant(name.toUpperCase()) },
    { weight: 1, arbitrary: fc.constant(name.charAt(0).toUpperCase() + name.slice(1)) },
    { weight: 1, arbitrary: fc.constant(name.charAt(0).toLowerCase() + name.slice(1)) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
        .map((flips) => [...name].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join('')),
    },
  );
}

/** Nesting past the 32 levels the input guard allows, written as text: building it as values would be the slow part. */
const deepJson: fc.Arbitrary<JsonRaw> = fc
  .tuple(fc.constantFrom(31, 32, 33, 100, 10_000), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => new JsonRaw(open.repeat(depth) + (open === '[' ? '1' + ']'.repeat(depth) : '1' + '}'.repeat(depth))));

const oddNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 1.5, -0.000001),
  fc
    .constantFrom('1e400', '-1e400', '-0', '123456789012345678901234567890', '1E2', '0.0000000000000000001')
    .map((text) => new JsonRaw(text)),
);

/** Any JSON value, with hostile strings and keys; shallow, so that it stays cheap. */
export function anyJson(ids: FuzzIds): fc.Arbitrary<Json> {
  const scalar: fc.Arbitrary<Json> = fc.oneof(fc.constant(null), fc.boolean(), oddNumber, hostileText, idText(ids));
  const key = fc.oneof(
    { weight: 3, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'prototype', 'toString') },
  );
  return fc.letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('value'), { maxLength: 3 }),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map((entries) => new JsonObject(entries)),
    ),
  })).value;
}

function resolve(document: SchemaDocument, schema: unknown): Schema {
  let current = (schema ?? {}) as Schema;
  for (let hops = 0; hops < 10; hops++) {
    if (typeof current['$ref'] === 'string')
      current = (document.components.schemas[current['$ref'].replace('#/components/schemas/', '')] ?? {}) as Schema;
    else if (Array.isArray(current['allOf']) && current['allOf'].length === 1) current = current['allOf'][0] as Schema;
    else break;
  }
  return current;
}

/** A value the schema describes, now and then (1 in 8 per node) replaced by something else entirely. */
export function fromSchema(document: SchemaDocument, schema: unknown, ids: FuzzIds, depth = 0): fc.Arbitrary<Json> {
  const resolved = resolve(document, schema);
  const typed = typedValue(document, resolved, ids, depth);
  const withNull =
    resolved['nullable'] === true ? fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: fc.constant(null) }) : typed;
  return fc.oneof({ weight: 7, arbitrary: withNull }, { weight: 1, arbitrary: anyJson(ids) });
}

function typedValue(document: SchemaDocument, schema: Schema, ids: FuzzIds, depth: number): fc.Arbitrary<Json> {
  const oneOf = (schema['oneOf'] ?? schema['anyOf']) as unknown[] | undefined;
  if (Array.isArray(oneOf) && oneOf.length > 0) return fc.oneof(...oneOf.map((option) => fromSchema(document, option, ids, depth + 1)));
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) {
    const values = schema['enum'] as Json[];
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...values) },
      { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => (typeof v === 'string' ? v.toUpperCase() : v)) },
      { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => (typeof v === 'string' ? ` ${v} ` : v)) },
    );
  }
  // deeper than this the documented shape stops mattering; keep the generator small
  if (depth > 4) return anyJson(ids);
  switch (schema['type']) {
    case 'object':
      return objectValue(document, schema, ids, depth);
    case 'array':
      return fc.array(fromSchema(document, schema['items'], ids, depth + 1), { maxLength: 4 });
    case 'integer':
      return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: -5, max: 2000 }) }, { weight: 1, arbitrary: oddNumber });
    case 'number':
      return oddNumber;
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringValue(schema, ids);
    default:
      return anyJson(ids);
  }
}

function stringValue(schema: Schema, ids: FuzzIds): fc.Arbitrary<string> {
  const format = schema['format'];
  const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : '';
  if (format === 'uuid') return idText(ids);
  if (format === 'email')
    return fc.oneof(
      { weight: 3, arbitrary: fc.emailAddress() },
      { weight: 1, arbitrary: fc.tuple(hostileText, hostileText).map(([local, domain]) => `${local}@${domain}.test`) },
      { weight: 1, arbitrary: hostileText },
    );
  if (format === 'uri')
    return fc.oneof(fc.webUrl(), hostileText, fc.constantFrom('javascript:alert(1)', 'http://[::1', 'postMessage:*', 'http://x/%00'));
  if (pattern.includes('0-9a-fA-F'))
    return fc.oneof(
      { weight: 3, arbitrary: fc.uint8Array({ minLength: 16, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('hex')) },
      {
        weight: 1,
        arbitrary: fc.uint8Array({ minLength: 0, maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase() + 'g'),
      },
      { weight: 1, arbitrary: hostileText },
    );
  if (format === 'date' || format === 'date-time')
    return fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, format === 'date' ? 10 : undefined)),
      fc.constantFrom('2026-02-30', '0000-00-00', '2026-05-20', '9999-12-31T23:59:60Z', '20260520'),
      hostileText,
    );
  return fc.oneof(
    { weight: 3, arbitrary: hostileText },
    { weight: 1, arbitrary: idText(ids) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  );
}

function objectValue(document: SchemaDocument, schema: Schema, ids: FuzzIds, depth: number): fc.Arbitrary<JsonObject> {
  const properties = Object.entries((schema['properties'] ?? {}) as Record<string, unknown>);
  const required = new Set((schema['required'] ?? []) as string[]);
  const fields = properties.map(([name, sub]) => {
    const entry = fc.tuple(keyCasing(name), fromSchema(document, sub, ids, depth + 1));
    // a required field is still left out now and then: that is a validation error to answer as 400
    return required.has(name)
      ? fc.oneof({ weight: 9, arbitrary: entry.map((e) => [e]) }, { weight: 1, arbitrary: fc.constant([]) })
      : fc.option(
          entry.map((e) => [e]),
          { nil: [] },
        );
  });
  const extras = fc.array(fc.tuple(fc.oneof(hostileText, fc.constantFrom('constructor', '__proto__', 'prototype')), anyJson(ids)), {
    maxLength: schema['additionalProperties'] ? 3 : 1,
  });
  // the same field twice in two casings: which one wins must not matter to the status
  const duplicates = fc.array(fc.tuple(fc.nat(), fc.constantFrom<'lower' | 'upper'>('lower', 'upper'), anyJson(ids)), { maxLength: 1 });
  return fc.tuple(fc.tuple(...fields), extras, duplicates).map(([chosen, extra, dups]) => {
    const entries = (chosen as [string, Json][][]).flat();
    for (const [index, casing, value] of dups) {
      if (entries.length === 0) break;
      const [key] = entries[index % entries.length];
      entries.push([casing === 'lower' ? key.toLowerCase() : key.toUpperCase(), value]);
    }
    return new JsonObject([...entries, ...extra]);
  });
}

/** A JSON body: mostly the documented shape, else not an object, too deep, too big or not JSON at all. */
export function jsonBody(document: SchemaDocument, schema: unknown, ids: FuzzIds): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fromSchema(document, schema, ids).map(toJsonText) },
    { weight: 1, arbitrary: deepJson.map(toJsonText) },
    { weight: 1, arbitrary: anyJson(ids).map(toJsonText) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            '',
            ' ',
            '{',
            '{"a":',
            'nul',
            '[1,]',
            '{"a":1}x',
            '\ufeff{}',
            '{"x":"\\ud800"}',
            '{"\\u0000":1}',
            '"\\uDC00"',
            '{"a":"\\x"}',
            "{'a':1}",
          ),
          hostileText,
        )
        .map(([start, rest]) => start + rest),
    },
    // around the 1 MiB bound: just under is read and refused by the handler, just over is 413
    { weight: 1, arbitrary: fc.constantFrom(MIB - 64, MIB + 1, 3 * MIB).map((n) => `{"Name":"${'x'.repeat(n)}"}`) },
  );
}

/** Form bodies of the HTML pages: the documented fields and anything else, encoded or not quite. */
export function formBody(ids: FuzzIds): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom('code', 'CODE', 'token', 'nonce', '__proto__', 'code[]'), hostileText),
    fc.oneof(fc.stringMatching(/^\d{6}$/), hostileText, idText(ids)),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(pair, { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()) },
    { weight: 1, arbitrary: fc.constantFrom('code=%', 'code=%zz', 'code=%00', 'code=%ED%A0%80', '&&&=', 'code=1&code=2', '=') },
    { weight: 1, arbitrary: fc.constantFrom(MIB + 1).map((n) => `code=${'1'.repeat(n)}`) },
  );
}

/** A path or query text percent-encoded byte by byte (a lone surrogate goes out as the bytes of U+FFFD). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Escapes a decoder trips on: truncated, overlong and surrogate UTF-8, NUL, dot segments, encoded slashes. */
const RAW_ESCAPES = [
  '%',
  '%zz',
  '%00',
  '%ED%A0%80',
  '%C0%AF',
  '%C0%80',
  '%FF',
  '%E0%A4%A',
  '..',
  '%2e%2e',
  '%2F',
  '%252F',
  '%20',
  'null',
  'undefined',
  '0',
  '-1',
  '%7Bid%7D',
  '%3B',
  '%23',
];

export function pathSegment(name: string, ids: FuzzIds, known: readonly string[] = []): fc.Arbitrary<string> {
  const kinds: fc.WeightedArbitrary<string>[] = [
    { weight: 4, arbitrary: idText(ids).map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
    { weight: 1, arbitrary: fc.constantFrom(2048, 2049, 10_000).map((n) => 'a'.repeat(n)) },
  ];
  if (known.length > 0) kinds.push({ weight: 6, arbitrary: fc.constantFrom(...known).chain((value) => keyCasing(value)) });
  return fc.oneof(...kinds).map((segment) => (segment === '' ? '%20' : segment));
}

export interface QueryParameter {
  name: string;
}

/** A query string: documented names in any case, repeated, empty or given junk; sometimes an unknown one. */
export function queryString(parameters: QueryParameter[], ids: FuzzIds): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: hostileText.map(percentEncode) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        '-1',
        '0',
        '1.5',
        '1e3',
        '1001',
        '99999999999999999999',
        '0x10',
        'true',
        'TRUE',
        'false',
        '2026-05-19',
        '2026-05-20',
        '2999-01-01',
        '2026-13-45',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
    { weight: 1, arbitrary: idText(ids).map(percentEncode) },
  );
  const pairsOf = (name: string) => fc.option(fc.array(fc.tuple(keyCasing(name), value), { minLength: 1, maxLength: 3 }), { nil: [] });
  const unknown = fc.array(fc.tuple(fc.oneof(hostileText.map(percentEncode), fc.constantFrom('id', '__proto__', 'constructor')), value), {
    maxLength: 1,
  });
  return fc
    .tuple(fc.tuple(...parameters.map((p) => pairsOf(p.name))), unknown, fc.constantFrom('', '', '', '&', '&&', '=', '?'))
    .map(([documented, extra, tail]) => {
      const pairs = [...documented.flat(), ...extra].map(([name, v]) => `${name}=${v}`);
      const text = pairs.join('&') + (pairs.length > 0 ? tail : '');
      return text ? `?${text}` : '';
    });
}

export interface BodyEncoding {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  bytes: Buffer;
  /** the text before any encoding: what the server sees once it has inflated the body */
  plain: string;
}

/** The body as bytes with its headers: mostly as documented, else another content type or an encoding. */
export function encoded(text: fc.Arbitrary<string>, documentedType: string): fc.Arbitrary<BodyEncoding> {
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant<string | undefined>(documentedType) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<string | undefined>(
        undefined,
        '',
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'APPLICATION/JSON',
        'application/merge-patch+json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/octet-stream',
        '*/*',
        'json',
      ),
    },
  );
  const encoding = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(undefined) },
    { weight: 1, arbitrary: fc.constant('gzip (valid)') },
    { weight: 2, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'GZIP', 'identity', 'compress', 'x-unknown', 'gzip, br', '') },
  );
  const junk = fc.uint8Array({ minLength: 0, maxLength: 64 });
  return fc.tuple(text, contentType, encoding, junk).map(([body, type, enc, junkBytes]) => {
    const plain = Buffer.from(body, 'utf8');
    if (enc === 'gzip (valid)') return { contentType: type, contentEncoding: 'gzip', bytes: gzipSync(plain), plain: body };
    const compressedName = enc !== undefined && /gzip|deflate|br|compress/i.test(enc);
    return {
      contentType: type,
      contentEncoding: enc,
      bytes: compressedName ? Buffer.concat([Buffer.from(junkBytes), plain.subarray(0, 32)]) : plain,
      plain: body,
    };
  });
}

/** A path template's literal segments in any case, with a trailing slash or not (both are routed). */
export function pathCasing(template: string): fc.Arbitrary<(path: string) => string> {
  return fc
    .tuple(fc.constantFrom<'same' | 'lower' | 'upper'>('same', 'same', 'lower', 'upper'), fc.boolean())
    .map(([casing, slash]) => (path: string) => {
      const literal = template.replace(/\{[^}]+\}/g, '');
      const cased =
        casing === 'same' || literal === '/'
          ? path
          : casing === 'lower'
            ? caseLiterals(template, path, (s) => s.toLowerCase())
            : caseLiterals(template, path, (s) => s.toUpperCase());
      return slash ? `${cased}/` : cased;
    });
}

function caseLiterals(template: string, path: string, change: (text: string) => string): string {
  const templateSegments = template.split('/');
  const pathSegments = path.split('/');
  // only when the filled path still lines up with the template: an id containing `/` is left as it is
  if (templateSegments.length !== pathSegments.length) return path;
  return pathSegments.map((segment, i) => (templateSegments[i].startsWith('{') ? segment : change(segment))).join('/');
}
