/**
 * Elements built from text, never from HTML strings: nothing the service or a link sends can become
 * markup (and the CSP allows no inline script anyway).
 */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

export function on<T extends HTMLElement>(element: T, event: string, handler: (event: Event) => void): T {
  element.addEventListener(event, handler);
  return element;
}

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
