/** What only the authenticator app draws; elements from text are `@twofold/web-ui`'s `h`. */
const SVG = 'http://www.w3.org/2000/svg';

/** The service's shield logo (the pages' one), coloured by the style sheet. */
export function logo(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shield = document.createElementNS(SVG, 'path');
  shield.setAttribute('class', 'logo-shield');
  shield.setAttribute('d', 'M12 2.2l8 3v6.1c0 5-3.4 9.3-8 10.7-4.6-1.4-8-5.7-8-10.7V5.2z');
  const tick = document.createElementNS(SVG, 'path');
  tick.setAttribute('class', 'logo-tick');
  tick.setAttribute('d', 'M8.4 12.1l2.5 2.5 4.8-5');
  svg.append(shield, tick);
  return svg;
}
