/**
 * Elements built from text, never from HTML strings: no identity, name, journal field or message the
 * service or a link sends can become markup (and the apps' CSP allows no inline script anyway).
 */
export type Child = Node | string | null | undefined | false;

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
