import { h, on } from '@twofold/web-ui';
import { call, model } from './api';
import { actionButton, field, table } from './dom';
import { t } from './i18n';
import { formError, heading, offsetOf, pager, Paged, ROWS_PER_PAGE } from './parts';
import { may, ScreenContext } from './screens';

/**
 * The account's groups (`/groups`, a page at a time) and a group's members (`/users?group=`, a page at
 * a time: a group of a large account is never read whole). Anyone who sees users sees groups; creating,
 * renaming, deleting and changing members takes `users.manage`, whose buttons a session without it does
 * not get (the server refuses them anyway).
 */

export interface Group {
  id: string;
  name: string;
  system: boolean;
}

interface Member {
  id: string;
  identity: string;
  name: string | null;
}

function groupHref(group: Pick<Group, 'id' | 'name'>): string {
  return `#/group?${new URLSearchParams({ id: group.id, name: group.name })}`;
}

export async function groupsScreen(context: ScreenContext, query: URLSearchParams): Promise<void> {
  const { root, session } = context;
  const offset = offsetOf(query);
  const page = await model<Paged<Group>>('GET', `/groups?offset=${offset}&limit=${ROWS_PER_PAGE}`);
  const manage = may(session, 'users.manage');

  const rows = page.data.map((group) => [
    h('a', { href: groupHref(group), 'data-testid': 'group-link' }, group.name),
    group.system ? h('span', { class: 'muted' }, t.systemGroup) : document.createTextNode(''),
  ]);
  let create: HTMLElement | null = null;
  if (manage) {
    const name = h('input', { type: 'text', required: true, autocomplete: 'off', maxlength: '100' });
    const error = formError();
    create = h(
      'div',
      {},
      on(
        h('form', { class: 'row' }, field('group-name', t.groupName, name), h('button', { type: 'submit' }, t.create)),
        'submit',
        async (event) => {
          event.preventDefault();
          error.clear();
          try {
            const group = await model<Group>('POST', '/groups', { name: name.value });
            location.hash = groupHref(group);
          } catch (failure) {
            error.show(failure);
          }
        },
      ),
      error.element,
    );
  }
  root.replaceChildren(
    heading(t.groups),
    create ?? '',
    h('p', { class: 'muted', 'data-testid': 'groups-total' }, t.total(page.totalElements)),
    rows.length ? table([t.name, ''], rows, t.groups) : h('p', {}, t.noneFound),
    pager(t.groups, offset, offset + page.data.length < page.totalElements, (at) => `#/groups?offset=${at}`),
  );
}

export async function groupScreen(context: ScreenContext, query: URLSearchParams): Promise<void> {
  const { root, session } = context;
  const id = query.get('id') ?? '';
  const name = query.get('name') ?? '';
  const offset = offsetOf(query);
  // one more than a page tells whether there is a next one: the user list has no total
  const found = await model<Member[]>('GET', `/users?group=${encodeURIComponent(name)}&offset=${offset}&limit=${ROWS_PER_PAGE + 1}`);
  const members = found.slice(0, ROWS_PER_PAGE);
  const system = name.toLowerCase() === 'allusers';
  const manage = may(session, 'users.manage') && !system;
  const reload = () => groupScreen(context, query).catch(context.fail);
  const here = { id, name };

  const changes = h('div', {});
  if (manage) {
    const newName = h('input', { type: 'text', required: true, value: name, autocomplete: 'off', maxlength: '100' });
    const renameError = formError();
    const renameForm = on(
      h('form', { class: 'row' }, field('group-new-name', t.newName, newName), h('button', { type: 'submit' }, t.rename)),
      'submit',
      async (event) => {
        event.preventDefault();
        renameError.clear();
        try {
          const renamed = await model<Group>('PUT', `/groups/${encodeURIComponent(id)}`, { name: newName.value });
          location.hash = groupHref(renamed);
        } catch (failure) {
          renameError.show(failure);
        }
      },
    );
    const remove = actionButton(
      t.deleteGroup,
      async () => {
        if (!confirm(t.deleteGroupConfirm(name))) return;
        try {
          await call('DELETE', `/groups/${encodeURIComponent(id)}`);
          location.hash = '#/groups';
        } catch (failure) {
          context.fail(failure);
        }
      },
      { class: 'danger' },
    );
    const identity = h('input', { type: 'text', required: true, autocomplete: 'off' });
    const addError = formError();
    const addForm = on(
      h('form', { class: 'row' }, field('group-add-identity', t.addMember, identity), h('button', { type: 'submit' }, t.add)),
      'submit',
      async (event) => {
        event.preventDefault();
        addError.clear();
        try {
          const [user] = await model<Member[]>('GET', `/users?identity=${encodeURIComponent(identity.value.trim())}`);
          if (!user) {
            addError.say(t.noSuchUser(identity.value.trim()));
            return;
          }
          await call('POST', `/v2/users/${user.id}/groups`, { GroupNames: [name] });
          await reload();
        } catch (failure) {
          addError.show(failure);
        }
      },
    );
    changes.append(renameForm, renameError.element, h('div', { class: 'row' }, remove), addForm, addError.element);
  }

  const rows = members.map((member) => [
    h('a', { href: `#/user?identity=${encodeURIComponent(member.identity)}`, 'data-testid': 'member-link' }, member.identity),
    document.createTextNode(member.name ?? ''),
    manage
      ? actionButton(t.removeFromGroup, async () => {
          try {
            await call('DELETE', `/v2/users/${member.id}/groups`, { GroupNames: [name] });
            await reload();
          } catch (failure) {
            context.fail(failure);
          }
        })
      : document.createTextNode(''),
  ]);
  root.replaceChildren(
    h('p', {}, h('a', { href: '#/groups' }, `← ${t.groups}`)),
    heading(name),
    system ? h('p', { class: 'muted' }, t.systemGroup) : '',
    changes,
    h('h2', {}, t.members),
    rows.length ? table([t.identity, t.name, ''], rows, t.members) : h('p', {}, t.noneFound),
    pager(t.members, offset, found.length > ROWS_PER_PAGE, (at) => `${groupHref(here)}&offset=${at}`),
  );
}
