/**
 * Elements built from text, never from HTML strings: no identity, name or journal field the service
 * returns can become markup (and the console's CSP allows no inline script anyway).
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

/** A button that runs `action` once at a time: disabled while it runs, so a double click is one call. */
export function actionButton(
  label: string,
  action: () => Promise<void>,
  attributes: Record<string, string | boolean | undefined> = {},
): HTMLButtonElement {
  const button = h('button', { type: 'button', ...attributes }, label);
  button.addEventListener('click', async () => {
    if (button.disabled) return;
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** A labelled input: the label names it for screen readers, and a click on it focuses the field. */
export function field(id: string, label: string, input: HTMLInputElement | HTMLSelectElement): HTMLElement {
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input);
}

export function table(headers: string[], rows: Node[][], caption?: string): HTMLTableElement {
  return h(
    'table',
    {},
    caption ? h('caption', { class: 'sr-only' }, caption) : null,
    h('thead', {}, h('tr', {}, ...headers.map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}
