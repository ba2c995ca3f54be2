import { trustedHtml } from './html';

const SVG_ATTRS =
  'viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.25" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"';

/** Stroke icons drawn inline (the CSP allows no external images). */
export const ICONS = {
  check: trustedHtml(`<svg ${SVG_ATTRS}><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>`),
  cross: trustedHtml(`<svg ${SVG_ATTRS}><path d="M6.5 6.5l11 11M17.5 6.5l-11 11"/></svg>`),
  clock: trustedHtml(`<svg ${SVG_ATTRS}><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3.5 2"/></svg>`),
  lock: trustedHtml(`<svg ${SVG_ATTRS}><rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/></svg>`),
  question: trustedHtml(`<svg ${SVG_ATTRS}><path d="M9.2 9.2a3 3 0 0 1 5.8 1c0 2-3 2.4-3 4.3"/><path d="M12 18.2h.01"/></svg>`),
  refresh: trustedHtml(`<svg ${SVG_ATTRS}><path d="M19.5 12.5a7.5 7.5 0 1 1-2.2-5.8"/><path d="M19.5 4.5v5h-5"/></svg>`),
  info: trustedHtml(`<svg ${SVG_ATTRS}><path d="M12 11v6.5"/><path d="M12 7h.01"/></svg>`),
  phone: trustedHtml(`<svg ${SVG_ATTRS}><rect x="6.5" y="2.5" width="11" height="19" rx="2.5"/><path d="M11 18.5h2"/></svg>`),
  copy: trustedHtml(`<svg ${SVG_ATTRS}><rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V6a2 2 0 0 1 2-2h8"/></svg>`),
  alert: trustedHtml(`<svg ${SVG_ATTRS}><circle cx="12" cy="12" r="9"/><path d="M12 7.5v5"/><path d="M12 16.2h.01"/></svg>`),
} as const;

export type IconName = keyof typeof ICONS;

/** The brand's shield, coloured by the page's style (.logo-shield, .logo-tick). */
export const LOGO = trustedHtml(
  `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path class="logo-shield" d="M12 2.2l8 3v6.1c0 5-3.4 9.3-8 10.7-4.6-1.4-8-5.7-8-10.7V5.2z"/><path class="logo-tick" d="M8.4 12.1l2.5 2.5 4.8-5" fill="none" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
);
