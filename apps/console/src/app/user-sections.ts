import { h, on } from '@twofold/web-ui';
import { call, model } from './api';
import { actionButton, field, table } from './dom';
import { Group } from './groups';
import { AccessRequest, historyQuery, historyTable } from './history';
import { t } from './i18n';
import { formError, Paged, yesterday } from './parts';
import { may, ScreenContext } from './screens';

/**
 * The parts of a user's screen below the factors: lockouts for wrong codes (and clearing them),
 * helpdesk bypass codes (shown once), the user's groups, and yesterday's sign-ins. Each is drawn only
 * for a session whose role may do it; the server refuses the others anyway.
 */

export interface CodeLockout {
  scope: string;
  address: string | null;
  resource: { id: string; name: string | null } | null;
  wrongCodes: number;
  lockedUntil: string;
}

export interface UserOfScreen {
  id: string;
  identity: string;
  groups: string[];
  codeLockouts: CodeLockout[];
}

/** How many of yesterday's sign-ins the user screen shows; the history screen has the rest. */
const RECENT_REQUESTS = 20;

interface BypassCodes {
  codes: string[];
  uses: number;
  expiresAt: string;
}

export async function userSections(context: ScreenContext, user: UserOfScreen, reload: () => Promise<void>): Promise<Node[]> {
  const { session } = context;
  const day = yesterday();
  const [recent, groups] = await Promise.all([
    // "yesterday" is the browser's: a clock a day off the server's is refused, and only this part says so
    model<Paged<AccessRequest>>('GET', historyQuery(day, user.identity, 0, RECENT_REQUESTS)).catch((error: unknown) => {
      const shown = formError();
      shown.show(error);
      return shown.element;
    }),
    // names to choose from when adding the user to a group: the first page, the field takes any name
    may(session, 'users.manage') ? model<Paged<Group>>('GET', '/groups?limit=100') : Promise.resolve(null),
  ]);
  return [
    ...codeLockouts(context, user, reload),
    ...bypassCodes(context, user),
    ...userGroups(context, user, groups?.data ?? [], reload),
    h('h2', {}, t.recentHistory),
    recent instanceof Node ? recent : recent.data.length ? historyTable(recent.data, false) : h('p', {}, t.noneFound),
    h('p', {}, h('a', { href: `#/history?${new URLSearchParams({ day, identity: user.identity })}` }, t.allHistory)),
  ];
}

function codeLockouts(context: ScreenContext, user: UserOfScreen, reload: () => Promise<void>): Node[] {
  if (user.codeLockouts.length === 0) return [];
  const rows = user.codeLockouts.map((lockout) => [
    document.createTextNode(lockout.scope),
    document.createTextNode([lockout.address, lockout.resource?.name ?? lockout.resource?.id].filter(Boolean).join(' @ ')),
    document.createTextNode(String(lockout.wrongCodes)),
    document.createTextNode(lockout.lockedUntil.slice(0, 19).replace('T', ' ')),
  ]);
  return [
    h('h2', {}, t.codeLockoutsOfUser),
    table([t.kind, t.address, t.wrongCodes, t.until], rows, t.codeLockoutsOfUser),
    may(context.session, 'users.support')
      ? h(
          'div',
          { class: 'row' },
          // the unlock is the API's way to clear them (it journals how many were in force)
          actionButton(t.clearLockouts, async () => {
            try {
              await call('POST', `/v2/users/${user.id}/unlock`);
              await reload();
              context.notify(t.lockoutsCleared);
            } catch (failure) {
              context.fail(failure);
            }
          }),
        )
      : h('span', {}),
  ];
}

function bypassCodes(context: ScreenContext, user: UserOfScreen): Node[] {
  if (!may(context.session, 'factors.manage')) return [];
  const number = (value: string, min: string, max: string) =>
    h('input', { type: 'number', value, min, max, step: '1', required: true, inputmode: 'numeric' });
  const count = number('1', '1', '10');
  const uses = number('1', '1', '10');
  const ttl = number('60', '5', '1440');
  const shown = h('div', { 'aria-live': 'polite' });
  const error = formError();
  const form = on(
    h(
      'form',
      { class: 'row' },
      field('bypass-count', t.codeCount, count),
      field('bypass-uses', t.codeUses, uses),
      field('bypass-ttl', t.codeTtl, ttl),
      h('button', { type: 'submit' }, t.issueCodes),
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      error.clear();
      shown.replaceChildren();
      try {
        const issued = await model<BypassCodes>('POST', `/users/${user.id}/bypass-codes`, {
          count: Number(count.value),
          uses: Number(uses.value),
          ttlMinutes: Number(ttl.value),
        });
        // kept nowhere but in this element: leaving the screen forgets them
        shown.replaceChildren(
          h(
            'section',
            { class: 'card', role: 'dialog', 'aria-label': t.bypassCodes },
            h('p', { class: 'muted' }, t.codesOnce(issued.expiresAt.slice(0, 16).replace('T', ' '))),
            h('ul', { class: 'codes' }, ...issued.codes.map((code) => h('li', { class: 'secret', 'data-testid': 'bypass-code' }, code))),
          ),
        );
      } catch (failure) {
        error.show(failure);
      }
    },
  );
  return [h('h2', {}, t.bypassCodes), h('p', { class: 'muted' }, t.bypassLead), form, error.element, shown];
}

function userGroups(context: ScreenContext, user: UserOfScreen, choices: Group[], reload: () => Promise<void>): Node[] {
  const manage = may(context.session, 'users.manage');
  const items = user.groups.map((name) =>
    h(
      'li',
      {},
      h('span', { 'data-testid': 'user-group' }, name),
      ' ',
      // AllUsers is every user's: neither added nor removed
      manage && name.toLowerCase() !== 'allusers'
        ? actionButton(
            t.removeFromGroup,
            async () => {
              try {
                await call('DELETE', `/v2/users/${user.id}/groups`, { GroupNames: [name] });
                await reload();
              } catch (failure) {
                context.fail(failure);
              }
            },
            { class: 'link' },
          )
        : null,
    ),
  );
  const parts: Node[] = [h('h2', {}, t.groups), h('ul', {}, ...items)];
  if (manage) {
    const name = h('input', { type: 'text', required: true, autocomplete: 'off', list: 'group-choices' });
    const error = formError();
    const form = on(
      h(
        'form',
        { class: 'row' },
        field('user-add-group', t.addToGroup, name),
        h(
          'datalist',
          { id: 'group-choices' },
          ...choices.filter((group) => !group.system).map((group) => h('option', { value: group.name })),
        ),
        h('button', { type: 'submit' }, t.add),
      ),
      'submit',
      async (event) => {
        event.preventDefault();
        error.clear();
        try {
          await call('POST', `/v2/users/${user.id}/groups`, { GroupNames: [name.value.trim()] });
          await reload();
        } catch (failure) {
          error.show(failure);
        }
      },
    );
    parts.push(form, error.element);
  }
  return parts;
}
