import { h, on } from '@twofold/web-ui';
import { model } from './api';
import { field, table } from './dom';
import { t } from './i18n';
import { heading, offsetOf, pager, Paged, ROWS_PER_PAGE, yesterday } from './parts';
import { ScreenContext } from './screens';

/**
 * The access history (`GET /access/requests`): the sign-ins of one past UTC day, as the API serves
 * them (`createdAt`, today refused), filtered by identity, a page at a time. Every field is shown as
 * text: an identity and a resource name are whatever a client sent.
 */

export interface AccessRequest {
  id: string;
  identity: string;
  status: string;
  resourceName: string | null;
  createdAt: string;
  authenticator: string | null;
  ip: string | null;
  bypassed: boolean;
  channel: string;
}

export function historyQuery(day: string, identity: string, offset: number, limit: number): string {
  const params = new URLSearchParams({ createdAt: day, offset: String(offset), limit: String(limit) });
  if (identity) params.set('identity', identity);
  return `/access/requests?${params}`;
}

/** The history's rows, for this screen and the user screen's recent sign-ins. */
export function historyTable(requests: AccessRequest[], withIdentity: boolean): HTMLTableElement {
  const rows = requests.map((request) => [
    document.createTextNode(request.createdAt.slice(11, 19)),
    ...(withIdentity
      ? [h('a', { href: `#/user?identity=${encodeURIComponent(request.identity)}`, 'data-testid': 'history-identity' }, request.identity)]
      : []),
    document.createTextNode(request.resourceName ?? ''),
    h('span', { class: request.status === 'Granted' ? 'badge ok' : 'badge stop' }, request.status),
    document.createTextNode(request.bypassed ? t.bypassed : (request.authenticator ?? '')),
    document.createTextNode(request.channel),
    document.createTextNode(request.ip ?? ''),
  ]);
  const headers = [t.time, ...(withIdentity ? [t.identity] : []), t.resource, t.status, t.factor, t.channel, t.address];
  return table(headers, rows, t.history);
}

export async function historyScreen(context: ScreenContext, query: URLSearchParams): Promise<void> {
  const { root } = context;
  const day = query.get('day') ?? yesterday();
  const identity = query.get('identity') ?? '';
  const offset = offsetOf(query);
  const page = await model<Paged<AccessRequest>>('GET', historyQuery(day, identity, offset, ROWS_PER_PAGE));

  const dayInput = h('input', { type: 'date', value: day, required: true });
  const identityInput = h('input', { type: 'search', value: identity, autocomplete: 'off' });
  const addressOf = (next: { day: string; identity: string; offset: number }) => {
    const params = new URLSearchParams({ day: next.day });
    if (next.identity) params.set('identity', next.identity);
    if (next.offset) params.set('offset', String(next.offset));
    return `#/history?${params}`;
  };
  const form = on(
    h(
      'form',
      { class: 'row' },
      field('history-day', t.day, dayInput),
      field('history-identity', t.identity, identityInput),
      h('button', { type: 'submit' }, t.show),
    ),
    'submit',
    (event) => {
      event.preventDefault();
      location.hash = addressOf({ day: dayInput.value, identity: identityInput.value.trim(), offset: 0 });
    },
  );
  root.replaceChildren(
    heading(t.history),
    form,
    h('p', { class: 'muted', 'data-testid': 'history-total' }, t.requests(page.totalElements)),
    page.data.length ? historyTable(page.data, true) : h('p', {}, t.noneFound),
    pager(t.history, offset, offset + page.data.length < page.totalElements, (at) => addressOf({ day, identity, offset: at })),
  );
}
