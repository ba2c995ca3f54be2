/**
 * The fields of a page's form body (urlencoded by the browser, or anything a script sends). Names are
 * matched exactly, as the pages write them. A field that is missing, repeated (an array) or not text
 * reads as '', which every check of the pages refuses like a wrong value.
 */
export function formField(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** The `code` field without the spaces people type or paste between the digits. */
export function formCode(body: unknown): string {
  return formField(body, 'code').replace(/\s+/g, '');
}
