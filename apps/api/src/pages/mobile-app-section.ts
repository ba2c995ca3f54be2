import { html, Html, trustedHtml } from './html';
import { PageLanguage } from './i18n/languages';

/** The Twofold Authenticator offer of an enrolling page, as the page shows it. */
export interface MobileAppSectionModel {
  /** `<ACCESS_URL>/app/#enroll=<token>` */
  url: string;
  qrSvg: string;
  /** the page's own check of the token, relative to the page's URL */
  statePath: string;
}

/**
 * What the page does once the app enrolled: nothing more than saying so (`stay`), load the page again
 * (`reload`: the access page then asks for the approval), or post the page's form `mobile-app-continue`
 * (`submit`: a page that was itself the answer to a POST).
 */
export type MobileAppContinuation = 'stay' | 'reload' | 'submit';

const TEXTS = {
  en: {
    title: 'Or confirm sign-ins with the Twofold Authenticator app',
    intro:
      "Scan the code with your phone's camera (or open the link on the phone itself) and install the app it opens: sign-ins are then confirmed with one tap, with the number this page shows.",
    open: 'Open the app on this phone',
    qr: 'QR code of the link that sets up the Twofold Authenticator app',
    enrolled: 'The app is set up.',
  },
  ru: {
    title: 'Или подтверждайте входы в приложении Twofold Authenticator',
    intro:
      'Отсканируйте код камерой телефона (или откройте ссылку на самом телефоне) и установите открывшееся приложение: входы будут подтверждаться одним нажатием, с числом, которое покажет эта страница.',
    open: 'Открыть приложение на этом телефоне',
    qr: 'QR-код ссылки, подключающей приложение Twofold Authenticator',
    enrolled: 'Приложение подключено.',
  },
} as const;

/**
 * The one script of the app's offer, the same text for every page: it asks the page's check every two
 * seconds until the token has enrolled a device, says so, and continues as the section's
 * `data-continue` says. Without scripts the QR code and the link still work; the page then learns of
 * the new factor on its next load.
 */
export const MOBILE_APP_ENROLLED_SCRIPT =
  "(function () { var section = document.getElementById('mobile-app'); if (!section || !window.fetch) return; " +
  "var path = section.getAttribute('data-state'); var status = document.getElementById('mobile-app-status'); " +
  "var next = section.getAttribute('data-continue'); " +
  "function check() { fetch(path, { cache: 'no-store', credentials: 'same-origin' }).then(function (res) { return res.ok ? res.json() : {}; })" +
  ".then(function (state) { if (state.enrolled) { status.textContent = status.getAttribute('data-enrolled'); " +
  "if (next === 'reload') window.location.replace(window.location.pathname); " +
  "else if (next === 'submit') { var form = document.getElementById('mobile-app-continue'); if (form) form.submit(); } } else setTimeout(check, 2000); })" +
  '.catch(function () { setTimeout(check, 2000); }); } setTimeout(check, 2000); })();';

export function mobileAppSection(
  lang: PageLanguage,
  nonce: string,
  model: MobileAppSectionModel,
  options: { continuation: MobileAppContinuation; heading?: boolean },
): Html {
  const t = TEXTS[lang];
  const heading = options.heading === false ? null : html`<h2>${t.title}</h2>\n`;
  return html`<section id="mobile-app" data-state="${model.statePath}" data-continue="${options.continuation}">
${heading}<p>${t.intro}</p>
<div class="qr" role="img" aria-label="${t.qr}">${trustedHtml(model.qrSvg)}</div>
<p><a class="btn" id="mobile-app-link" data-testid="mobile-app-link" href="${model.url}">${t.open}</a></p>
<p role="status" id="mobile-app-status" data-enrolled="${t.enrolled}"></p>
</section>
<script nonce="${nonce}">${trustedHtml(MOBILE_APP_ENROLLED_SCRIPT)}</script>`;
}
