import { h, on } from '@twofold/web-ui';
import { call, model } from './api';
import { actionButton, field, table } from './dom';
import { t } from './i18n';
import { formError, heading, offsetOf, pager, Paged, ROWS_PER_PAGE, textArea } from './parts';
import { ScreenContext } from './screens';

/**
 * The account's IP lists (`/ip-lists`, a page at a time): a Bypass list lets its networks in without a
 * code, a Deny list refuses them. One form creates a list or, filled from a row, replaces it; the API
 * judges it, and its message (which names the bad range, the unknown resource, the duplicate name) is
 * shown under the form as it came.
 */

interface IpList {
  id: string;
  name: string;
  ranges: string[];
  action: 'Bypass' | 'Deny';
  resources: string[];
}

interface Resource {
  id: string;
  name: string;
}

/** Ranges shown in a row before "and N more": a list holds up to 1000. */
const RANGES_SHOWN = 5;

export async function ipListsScreen(context: ScreenContext, query: URLSearchParams): Promise<void> {
  const { root } = context;
  const offset = offsetOf(query);
  const [page, resources] = await Promise.all([
    model<Paged<IpList>>('GET', `/ip-lists?offset=${offset}&limit=${ROWS_PER_PAGE}`),
    // an account has a few resources (each is a system it protects); the form offers them all
    model<Paged<Resource>>('GET', '/resources?limit=1000'),
  ]);
  const resourceName = new Map(resources.data.map((resource) => [resource.id, resource.name]));
  const reload = () => ipListsScreen(context, query).catch(context.fail);

  // the form: a new list, or the list being edited
  let editing: IpList | null = null;
  const name = h('input', { type: 'text', required: true, autocomplete: 'off', maxlength: '100' });
  const action = h('select', {}, h('option', { value: 'Bypass' }, t.bypass), h('option', { value: 'Deny' }, t.deny));
  const ranges = h('textarea', { rows: '5', spellcheck: 'false', autocomplete: 'off' });
  const boxes = resources.data.map((resource) => {
    const box = h('input', { type: 'checkbox', value: resource.id, id: `ip-list-resource-${resource.id}` });
    return { box, label: h('label', { for: box.id, class: 'check' }, box, ' ', resource.name) };
  });
  const submit = h('button', { type: 'submit' }, t.create);
  const cancel = on(h('button', { type: 'button', class: 'link', hidden: true }, t.cancel), 'click', () => fill(null));
  const error = formError();
  const fill = (list: IpList | null) => {
    editing = list;
    name.value = list?.name ?? '';
    action.value = list?.action ?? 'Bypass';
    ranges.value = list?.ranges.join('\n') ?? '';
    for (const { box } of boxes) box.checked = list?.resources.includes(box.value) ?? false;
    submit.textContent = list ? t.save : t.create;
    cancel.hidden = !list;
    error.clear();
    if (list) name.focus();
  };
  const form = on(
    h(
      'form',
      { class: 'card stack', 'data-testid': 'ip-list-form' },
      h('div', { class: 'row' }, field('ip-list-name', t.name, name), field('ip-list-action', t.listAction, action)),
      textArea('ip-list-ranges', t.ranges, ranges),
      boxes.length ? h('fieldset', {}, h('legend', {}, t.appliesTo), ...boxes.map(({ label }) => label)) : '',
      h('div', { class: 'row' }, submit, cancel),
      error.element,
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      error.clear();
      const body = {
        name: name.value,
        action: action.value,
        ranges: ranges.value
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
        resources: boxes.filter(({ box }) => box.checked).map(({ box }) => box.value),
      };
      try {
        if (editing) await call('PUT', `/ip-lists/${editing.id}`, body);
        else await call('POST', '/ip-lists', body);
        await reload();
        context.notify(t.ipListSaved);
      } catch (failure) {
        error.show(failure);
      }
    },
  );

  const rows = page.data.map((list) => [
    document.createTextNode(list.name),
    h('span', { class: list.action === 'Deny' ? 'badge stop' : 'badge ok' }, list.action),
    h(
      'span',
      { class: 'details' },
      list.ranges.slice(0, RANGES_SHOWN).join(', ') +
        (list.ranges.length > RANGES_SHOWN ? ` ${t.more(list.ranges.length - RANGES_SHOWN)}` : ''),
    ),
    document.createTextNode(list.resources.length ? list.resources.map((id) => resourceName.get(id) ?? id).join(', ') : t.everyResource),
    h(
      'div',
      { class: 'row' },
      on(h('button', { type: 'button' }, t.edit), 'click', () => fill(list)),
      actionButton(
        t.deleteList,
        async () => {
          if (!confirm(t.deleteListConfirm(list.name))) return;
          try {
            await call('DELETE', `/ip-lists/${list.id}`);
            await reload();
          } catch (failure) {
            context.fail(failure);
          }
        },
        { class: 'danger' },
      ),
    ),
  ]);
  root.replaceChildren(
    heading(t.ipLists),
    form,
    h('p', { class: 'muted', 'data-testid': 'ip-lists-total' }, t.total(page.totalElements)),
    rows.length ? table([t.name, t.listAction, t.rangesShort, t.resources, ''], rows, t.ipLists) : h('p', {}, t.noneFound),
    pager(t.ipLists, offset, offset + page.data.length < page.totalElements, (at) => `#/ip-lists?offset=${at}`),
  );
}
