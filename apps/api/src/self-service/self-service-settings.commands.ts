import { InputFields, isGiven, ValidationFailed, validateUserEmail } from '@twofold/domain';
import { ShowcaseLinkRow, ShowcaseRow, SupportInfoRow } from '@twofold/persistence';
import { parseLogoName } from './showcase-logo';

const TEXT_MAX_CHARS = 200;
const URL_MAX_CHARS = 2000;
/** The portal shows every tile on one page. */
export const SHOWCASE_MAX_LINKS = 50;

/** Optional text: absent, null or blank is null; otherwise trimmed, one line, at most `max` characters. */
function optionalText(raw: unknown, field: string, max = TEXT_MAX_CHARS): string | null {
  if (!isGiven(raw)) return null;
  if (typeof raw !== 'string') throw new ValidationFailed(`${field} must be a string.`);
  const text = raw.trim();
  if (text === '') return null;
  if (text.length > max) throw new ValidationFailed(`${field} must be at most ${max} characters.`);
  if ([...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    throw new ValidationFailed(`${field} must be one line of text.`);
  return text;
}

function requiredText(raw: unknown, field: string, max = TEXT_MAX_CHARS): string {
  const text = optionalText(raw, field, max);
  if (text === null) throw new ValidationFailed(`${field} is required.`);
  return text;
}

/** PUT /settings/support-info `{adminName, adminEmail, adminPhone}`, each optional (null clears it). */
export function parseSupportInfo(body: unknown): SupportInfoRow {
  const fields = InputFields.ofBody(body);
  return {
    adminName: optionalText(fields.get('adminName'), 'adminName'),
    adminEmail: validateUserEmail(fields.get('adminEmail'), 'adminEmail'),
    adminPhone: optionalText(fields.get('adminPhone'), 'adminPhone', 50),
  };
}

/** A tile's link: an absolute http(s) URL, the only kind a portal may put in an `href`. */
function linkUrl(raw: unknown, field: string): string {
  const text = requiredText(raw, field, URL_MAX_CHARS);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationFailed(`${field} must be an absolute http or https URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationFailed(`${field} must be an absolute http or https URL.`);
  return url.href;
}

function showcaseLink(raw: unknown, index: number): ShowcaseLinkRow {
  const at = `showcaseLinks[${index}]`;
  const fields = InputFields.of(raw, `${at} must be an object.`);
  const openInNewTab = fields.get('openInNewTab');
  if (isGiven(openInNewTab) && typeof openInNewTab !== 'boolean') throw new ValidationFailed(`${at}.openInNewTab must be true or false.`);
  const image = fields.get('image');
  return {
    resourceId: optionalText(fields.get('resourceId'), `${at}.resourceId`) ?? '',
    url: linkUrl(fields.get('url'), `${at}.url`),
    title: requiredText(fields.get('title'), `${at}.title`),
    image: isGiven(image) && image !== '' ? parseLogoName(image) : '',
    openInNewTab: openInNewTab === true,
  };
}

/** PUT /settings/showcase `{enabled, showcaseLinks: [{resourceId, url, title, image, openInNewTab}]}`: the shape the portal reads. */
export function parseShowcase(body: unknown): ShowcaseRow {
  const fields = InputFields.ofBody(body);
  const enabled = fields.get('enabled');
  if (typeof enabled !== 'boolean') throw new ValidationFailed('enabled must be true or false.');
  const links = fields.get('showcaseLinks');
  if (isGiven(links) && !Array.isArray(links)) throw new ValidationFailed('showcaseLinks must be an array.');
  const list = (links ?? []) as unknown[];
  if (list.length > SHOWCASE_MAX_LINKS) throw new ValidationFailed(`showcaseLinks must hold at most ${SHOWCASE_MAX_LINKS} links.`);
  return { enabled, showcaseLinks: list.map(showcaseLink) };
}
