/**
 * The key and secret of an `Authorization: Basic` header, read as RFC 7617 says: the scheme in any
 * case, one space, canonical base64 of `key:secret`, the key up to the first colon and the secret all
 * the rest (colons included). passport-http splits the decoded text at every colon and drops what
 * follows a second one, so `key:secret:anything` passed as `key:secret`; here it is a wrong secret.
 * Null for anything else: no header, another scheme, malformed base64, no colon, an empty part.
 */
export function basicCredentialsOf(header: string | string[] | undefined): { key: string; secret: string } | null {
  if (typeof header !== 'string') return null;
  const match = /^basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match) return null;
  const encoded = match[1];
  const decoded = Buffer.from(encoded, 'base64');
  // canonical only: a payload that does not round-trip carries bits the header did not mean
  if (decoded.toString('base64') !== encoded) return null;
  const text = decoded.toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  return { key: text.slice(0, colon), secret: text.slice(colon + 1) };
}
