import { h } from '@twofold/web-ui';
import { ApiError } from './api';
import { t } from './i18n';

/** Pieces the groups, IP lists and history screens share. */

/** A page of a list of our management API: `model: {data, offset, limit, totalElements}`. */
export interface Paged<T> {
  data: T[];
  offset: number;
  limit: number;
  totalElements: number;
}

/** How many rows a screen shows at once: a list is read a page at a time, never whole. */
export const ROWS_PER_PAGE = 50;

export function heading(text: string): HTMLElement {
  return h('h1', { tabindex: '-1' }, text);
}

/** A whole past UTC day is what the history serves: yesterday unless a day is asked for. */
export function yesterday(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
}

/** An offset from the address, never negative nor anything but a whole number. */
export function offsetOf(query: URLSearchParams): number {
  return Math.max(0, Math.floor(Number(query.get('offset') ?? 0)) || 0);
}

/** Previous and Next links: `href(offset)` makes the address of a page. */
export function pager(label: string, offset: number, hasMore: boolean, href: (offset: number) => string): HTMLElement {
  return h(
    'nav',
    { class: 'row', 'aria-label': label },
    offset > 0 ? h('a', { href: href(Math.max(0, offset - ROWS_PER_PAGE)) }, t.previous) : null,
    hasMore ? h('a', { href: href(offset + ROWS_PER_PAGE) }, t.next) : null,
  );
}

/**
 * Where a form says why the service refused it, beside the form (a screen reader reads it out): the
 * API's own message, which names the culprit (`ranges[1] "10.0.0.300" is not an IP address…`).
 */
export function formError(): { element: HTMLElement; show(error: unknown): void; say(message: string): void; clear(): void } {
  const element = h('p', { role: 'alert', class: 'notice error', hidden: true, 'data-testid': 'form-error' });
  return {
    element,
    show(error: unknown) {
      element.textContent = error instanceof ApiError ? error.message : `${t.failedRequest}: ${String(error)}`;
      element.hidden = false;
    },
    say(message: string) {
      element.textContent = message;
      element.hidden = false;
    },
    clear() {
      element.textContent = '';
      element.hidden = true;
    },
  };
}

/** A labelled multi-line field (dom.ts's `field` takes inputs and selects). */
export function textArea(id: string, label: string, area: HTMLTextAreaElement): HTMLElement {
  area.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), area);
}
