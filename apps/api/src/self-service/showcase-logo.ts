import { InputFields, ValidationFailed } from '@twofold/domain';
import { ShowcaseLogoType } from '@twofold/persistence';

/** A logo is a small tile image: anything bigger is refused before it is stored. */
export const SHOWCASE_LOGO_MAX_BYTES = 256 * 1024;
/** Names the portal puts in a URL path and a file name as they are: no separators, no `..`, no leading dot. */
const LOGO_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

export const LOGO_REFUSALS = {
  name: 'The logo name must be 1-100 characters of A-Z, a-z, 0-9, ".", "_" and "-", not starting with ".".',
  data: 'Data must be the image as a base64 string.',
  tooBig: `The logo must be at most ${SHOWCASE_LOGO_MAX_BYTES} bytes.`,
  type: 'The logo must be a PNG, JPEG or WebP image.',
} as const;

export function parseLogoName(raw: unknown): string {
  if (typeof raw !== 'string' || !LOGO_NAME.test(raw) || raw.includes('..')) throw new ValidationFailed(LOGO_REFUSALS.name);
  return raw;
}

/**
 * The image's type as its first bytes say, whatever name or type the uploader gave it: a renamed
 * HTML or SVG file (which a browser would run as a page of ours) is none of these and is refused.
 */
export function sniffLogoType(bytes: Buffer): ShowcaseLogoType | null {
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length > PNG.length && bytes.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length > 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** `{data}`: the image as base64 (standard or URL-safe), checked by its bytes and size. */
export function parseLogoUpload(data: unknown): { contentType: ShowcaseLogoType; bytes: Buffer } {
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(data.replace(/\s+/g, '')))
    throw new ValidationFailed(LOGO_REFUSALS.data);
  const bytes = Buffer.from(data.replace(/\s+/g, ''), 'base64');
  if (bytes.length === 0) throw new ValidationFailed(LOGO_REFUSALS.data);
  if (bytes.length > SHOWCASE_LOGO_MAX_BYTES) throw new ValidationFailed(LOGO_REFUSALS.tooBig);
  const contentType = sniffLogoType(bytes);
  if (!contentType) throw new ValidationFailed(LOGO_REFUSALS.type);
  return { contentType, bytes };
}

/** POST /settings/showcase/logos `{name, data}`: a safe name, and the image as base64 (added, or replacing the one of that name). */
export function parseLogoBody(body: unknown): { name: string; contentType: ShowcaseLogoType; bytes: Buffer } {
  const fields = InputFields.ofBody(body);
  const upload = parseLogoUpload(fields.get('data'));
  return { name: parseLogoName(fields.get('name')), ...upload };
}
