import { h } from '@twofold/web-ui';

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
