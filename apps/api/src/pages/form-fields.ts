import { html, Html, trustedHtml } from './html';
import { ICONS } from './icons';

/** `<input type="hidden">` for each field, escaped. */
export function hiddenInputs(fields: Record<string, string> | undefined): Html {
  return html`${Object.entries(fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

export interface CodeFieldOptions {
  /** only where the code is all the page asks for: on a phone the keyboard would cover the QR code */
  autofocus?: boolean;
  /** the browser's message for a value outside the pattern */
  title: string;
}

/** The code field (6 to 8 digits) with its label and error, as the enrollment and access forms show it. */
export function codeField(label: string, error: string | null, options: CodeFieldOptions): Html {
  const alert = error ? html`<p class="error" role="alert" id="code-error">${ICONS.alert}<span>${error}</span></p>` : null;
  return html`<label for="code">${label}</label>
  ${alert}
  <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6,8}" minlength="6" maxlength="8" autocomplete="one-time-code" placeholder="123456" title="${options.title}" spellcheck="false" required${options.autofocus && trustedHtml(' autofocus')}${error && trustedHtml(' aria-invalid="true" aria-describedby="code-error"')}>`;
}

/** The key in groups of four for the eye (copying the selection gives the key without spaces). */
export function keyGroups(secret: string): Html {
  return html`${(secret.match(/.{1,4}/g) ?? []).map((group) => html`<span>${group}</span>`)}`;
}
