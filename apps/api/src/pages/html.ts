/**
 * HTML that is safe to send: built only by the `html` template, which escapes every interpolated
 * value unless it is Html itself, or by `trustedHtml`, the one visible opt-out (for our own constants:
 * icons, styles, scripts, the QR code's SVG). A view that forgets to escape cannot be written.
 */
const BUILT_HERE = Symbol('html');

export class Html {
  /** Only the two builders below can make Html: nothing outside this module holds BUILT_HERE. */
  constructor(
    token: typeof BUILT_HERE,
    readonly text: string,
  ) {
    if (token !== BUILT_HERE) throw new Error('Html is made by html`…` or trustedHtml()');
  }

  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** An interpolated value: Html as it is, a list joined, null, undefined and false as nothing, anything else escaped. */
function rendered(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(rendered).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0];
  for (let i = 0; i < values.length; i += 1) text += rendered(values[i]) + strings[i + 1];
  return new Html(BUILT_HERE, text);
}

/** Markup we wrote or generated ourselves, sent as it is. Never for anything a request or a user supplied. */
export function trustedHtml(markup: string): Html {
  return new Html(BUILT_HERE, markup);
}
