import { ApiError, call, model, Session } from './api';
import { h, on } from '@twofold/web-ui';
import { actionButton, field, table } from './dom';
import { t } from './i18n';
import { newUserForm, userChanges } from './user-changes';
import { CodeLockout, userSections } from './user-sections';

/** What a screen gets: the place to draw, the session (its permissions), a way to report a failure. */
export interface ScreenContext {
  root: HTMLElement;
  session: Session;
  fail(error: unknown): void;
  notify(message: string): void;
}

export function may(session: Session, permission: string): boolean {
  return session.permissions.includes(permission);
}

function heading(text: string): HTMLElement {
  return h('h1', { tabindex: '-1' }, text);
}

// ---------------------------------------------------------------------------------------- dashboard

interface Dashboard {
  licenses: number;
  users: number;
  lockedUsers: number;
  codeLockouts: number;
  signInsGranted: number;
  signInsDenied: number;
  approvalsWaiting: number;
}

export async function dashboardScreen({ root }: ScreenContext): Promise<void> {
  const figures = await call<Dashboard>('GET', '/console/api/dashboard');
  const tile = (label: string, value: string, testId: string) =>
    h('div', { class: 'tile' }, h('p', { class: 'tile-label' }, label), h('p', { class: 'tile-value', 'data-testid': testId }, value));
  root.replaceChildren(
    heading(t.dashboard),
    h(
      'div',
      { class: 'tiles' },
      tile(t.licenses, `${figures.users} / ${figures.licenses}`, 'licenses'),
      tile(t.signInsToday, `${figures.signInsGranted} ${t.granted} · ${figures.signInsDenied} ${t.denied}`, 'sign-ins'),
      tile(t.lockedUsers, String(figures.lockedUsers), 'locked-users'),
      tile(t.codeLockouts, String(figures.codeLockouts), 'code-lockouts'),
      tile(t.approvalsWaiting, String(figures.approvalsWaiting), 'approvals'),
    ),
  );
}

// -------------------------------------------------------------------------------------------- users

interface User {
  id: string;
  identity: string;
  name: string | null;
  email: string | null;
  isLocked: boolean;
  authenticators: string[];
  groups: string[];
  codeLockouts: CodeLockout[];
}

const PAGE_SIZE = 50;

export async function usersScreen(context: ScreenContext, query: URLSearchParams): Promise<void> {
  const { root } = context;
  const identity = query.get('identity') ?? '';
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
  const path = identity ? `/users?identity=${encodeURIComponent(identity)}` : `/users?offset=${offset}&limit=${PAGE_SIZE + 1}`;
  let users: User[] = [];
  try {
    users = await model<User[]>('GET', path);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  const more = !identity && users.length > PAGE_SIZE;
  users = users.slice(0, PAGE_SIZE);

  const search = h('input', { type: 'search', name: 'identity', value: identity, autocomplete: 'off' });
  const form = on(
    h('form', { class: 'row', role: 'search' }, field('user-search', t.search, search), h('button', { type: 'submit' }, t.find)),
    'submit',
    (event) => {
      event.preventDefault();
      location.hash = search.value.trim() ? `#/users?identity=${encodeURIComponent(search.value.trim())}` : '#/users';
    },
  );
  const rows = users.map((user) => [
    h('a', { href: `#/user?identity=${encodeURIComponent(user.identity)}`, 'data-testid': 'user-link' }, user.identity),
    document.createTextNode(user.name ?? ''),
    h('span', { class: user.isLocked ? 'badge stop' : 'badge ok' }, user.isLocked ? t.locked : t.active),
    document.createTextNode(user.authenticators.join(', ')),
  ]);
  const pager = h(
    'nav',
    { class: 'row', 'aria-label': t.users },
    offset > 0 ? h('a', { href: `#/users?offset=${Math.max(0, offset - PAGE_SIZE)}` }, t.previous) : null,
    more ? h('a', { href: `#/users?offset=${offset + PAGE_SIZE}` }, t.next) : null,
  );
  root.replaceChildren(
    heading(t.users),
    form,
    newUserForm(context) ?? '',
    users.length ? table([t.identity, t.name, t.status, t.factors], rows, t.users) : h('p', {}, t.noneFound),
    pager,
  );
}

type Factors = Record<string, { id: string; name: string; disabled?: true }[]>;

export async function userScreen(context: ScreenContext, query: URLSearchParams): Promise<void> {
  const { root, session } = context;
  const identity = query.get('identity') ?? '';
  const [user] = await model<User[]>('GET', `/users?identity=${encodeURIComponent(identity)}`);
  const factors = await model<Factors>('GET', `/users/${user.id}/authenticators`);
  const reload = () => userScreen(context, query).catch(context.fail);

  const actions = h('div', { class: 'row' });
  if (may(session, 'users.support')) {
    actions.append(
      actionButton(user.isLocked ? t.unlock : t.lock, async () => {
        await call('POST', `/v2/users/${user.id}/${user.isLocked ? 'unlock' : 'lock'}`);
        await reload();
      }),
      actionButton(t.sendEnrollment, async () => {
        const link = await model<{ url: string }>('POST', `/users/${user.id}/enroll`, {});
        context.notify(t.enrollmentSent);
        actions.append(h('p', { class: 'secret', 'data-testid': 'enrollment-url' }, link.url));
      }),
    );
  }
  const factorRows = Object.entries(factors).flatMap(([kind, list]) =>
    list.map((factor) => [
      document.createTextNode(kind),
      h('span', {}, factor.name, factor.disabled ? ' ' : '', factor.disabled ? h('span', { class: 'badge stop' }, t.disabled) : ''),
      may(session, 'factors.manage')
        ? h(
            'div',
            { class: 'row' },
            // a phone is not disabled: it is removed through the phone endpoints
            kind === 'Sms'
              ? null
              : actionButton(factor.disabled ? t.enable : t.disable, async () => {
                  const path = `/users/${user.id}/authenticators/${kind.toLowerCase()}/${factor.id}`;
                  await call('POST', `${path}/${factor.disabled ? 'enable' : 'disable'}`).catch(context.fail);
                  await reload();
                }),
            actionButton(t.remove, async () => {
              if (!confirm(t.removeConfirm(factor.name))) return;
              await call('DELETE', `/users/${user.id}/authenticators/${kind.toLowerCase()}/${factor.id}`);
              await reload();
            }),
          )
        : document.createTextNode(''),
    ]),
  );
  const sections = await userSections(context, user, reload);
  root.replaceChildren(
    h('p', {}, h('a', { href: '#/users' }, `← ${t.back}`)),
    heading(user.identity),
    h(
      'p',
      {},
      user.name ?? '',
      ' ',
      h('span', { class: user.isLocked ? 'badge stop' : 'badge ok', 'data-testid': 'user-status' }, user.isLocked ? t.locked : t.active),
    ),
    actions,
    h('h2', {}, t.factors),
    factorRows.length ? table([t.kind, t.name, ''], factorRows, t.factors) : h('p', {}, t.noneFound),
    ...sections,
    ...userChanges(context, user, reload),
  );
}

// ------------------------------------------------------------------------------------------ journal

interface JournalEvent {
  eventDate: string;
  object: string;
  action: string;
  subject: string;
  success: boolean;
  additionalFields: Record<string, string>;
}

const JOURNAL_OBJECTS = [
  'AccessRequest',
  'AdminPanel',
  'Api',
  'Authenticator',
  'BypassCode',
  'Employee',
  'EnrollmentLink',
  'Group',
  'IpList',
  'PublicApiSecret',
  'RecoveryCode',
  'Resource',
  'User',
];

/** The journal serves whole past days (UTC): yesterday unless a day is asked for. */
function yesterday(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
}

export async function journalScreen({ root }: ScreenContext, query: URLSearchParams): Promise<void> {
  const day = query.get('day') ?? yesterday();
  const object = query.get('object') ?? '';
  const success = query.get('success') ?? '';
  const params = new URLSearchParams({ eventDate: day, limit: '200' });
  if (object) params.set('object', object);
  if (success) params.set('success', success);
  const page = await model<{ data: JournalEvent[]; totalElements: number }>('GET', `/journal?${params}`);

  const dayInput = h('input', { type: 'date', value: day, required: true });
  const objectSelect = h(
    'select',
    {},
    h('option', { value: '' }, t.all),
    ...JOURNAL_OBJECTS.map((name) => h('option', { value: name, selected: name === object }, name)),
  );
  const successSelect = h(
    'select',
    {},
    h('option', { value: '' }, t.all),
    h('option', { value: 'true', selected: success === 'true' }, t.succeeded),
    h('option', { value: 'false', selected: success === 'false' }, t.failed),
  );
  const form = on(
    h(
      'form',
      { class: 'row' },
      field('journal-day', t.day, dayInput),
      field('journal-object', t.object, objectSelect),
      field('journal-success', t.success, successSelect),
      h('button', { type: 'submit' }, t.show),
    ),
    'submit',
    (event) => {
      event.preventDefault();
      const next = new URLSearchParams({ day: dayInput.value });
      if (objectSelect.value) next.set('object', objectSelect.value);
      if (successSelect.value) next.set('success', successSelect.value);
      location.hash = `#/journal?${next}`;
    },
  );
  const rows = page.data.map((event) => [
    document.createTextNode(event.eventDate.slice(11, 19)),
    document.createTextNode(`${event.object} ${event.action}`),
    document.createTextNode(event.subject),
    h('span', { class: event.success ? 'badge ok' : 'badge stop' }, event.success ? t.succeeded : t.failed),
    h(
      'span',
      { class: 'details' },
      Object.entries(event.additionalFields)
        .map(([key, value]) => `${key}: ${value}`)
        .join(' · '),
    ),
  ]);
  root.replaceChildren(
    heading(t.journal),
    form,
    h('p', { class: 'muted', 'data-testid': 'journal-total' }, t.events(page.totalElements)),
    rows.length ? table([t.time, t.action, t.subject, t.success, t.details], rows, t.journal) : h('p', {}, t.noneFound),
  );
}

// ---------------------------------------------------------------------------------------- resources

interface Resource {
  id: string;
  name: string;
  apiKey: string;
  apiSecret?: string;
}

export async function resourcesScreen(context: ScreenContext): Promise<void> {
  const { root } = context;
  const page = await model<{ data: Resource[] }>('GET', '/resources?limit=1000');
  const revealed = h('div', { 'aria-live': 'polite' });
  const reveal = (resource: Resource) => {
    revealed.replaceChildren(
      h(
        'section',
        { class: 'card', role: 'dialog', 'aria-label': resource.name },
        h('h2', {}, resource.name),
        h('p', { class: 'muted' }, t.secretOnce),
        h('p', { class: 'secret', 'data-testid': 'resource-secret' }, resource.apiSecret ?? ''),
      ),
    );
  };
  const rows = page.data.map((resource) => [
    document.createTextNode(resource.name),
    h('code', {}, resource.apiKey),
    h(
      'div',
      { class: 'row' },
      actionButton(t.showSecret, async () => reveal(await model<Resource>('GET', `/resources/${resource.id}/secret`))),
      actionButton(t.newSecret, async () => {
        if (!confirm(t.newSecretConfirm(resource.name))) return;
        reveal(await model<Resource>('POST', `/resources/${resource.id}/secret`));
      }),
    ),
  ]);
  root.replaceChildren(
    heading(t.resources),
    revealed,
    rows.length ? table([t.name, t.apiKey, ''], rows, t.resources) : h('p', {}, t.noneFound),
  );
}

// ----------------------------------------------------------------------------------- administrators

interface Administrator {
  id: string;
  identity: string;
  name: string;
  role: string;
  status: string;
}

const ROLES = ['Support 1', 'Support 2', 'Support 3', 'Support 4', 'Admin'];

/** An administrator's role, changed as soon as another is chosen (the last Admin's change is refused by the server). */
function roleChoice(context: ScreenContext, admin: Administrator): HTMLElement {
  const select = h('select', {}, ...ROLES.map((name) => h('option', { value: name, selected: name === admin.role }, name)));
  select.id = `admin-role-${admin.id}`;
  select.setAttribute('aria-label', `${t.changeRole}: ${admin.identity}`);
  on(select, 'change', async () => {
    select.disabled = true;
    try {
      await call('PUT', `/admins/${admin.id}`, { role: select.value });
      admin.role = select.value;
      context.notify(t.roleChanged);
    } catch (error) {
      select.value = admin.role;
      context.fail(error);
    } finally {
      select.disabled = false;
    }
  });
  return select;
}

export async function administratorsScreen(context: ScreenContext): Promise<void> {
  const { root, session } = context;
  const page = await call<{ data: Administrator[] }>('GET', '/admins?limit=1000');
  const reload = () => administratorsScreen(context).catch(context.fail);
  const rows = page.data.map((admin) => [
    document.createTextNode(admin.identity),
    document.createTextNode(admin.name),
    roleChoice(context, admin),
    h('span', { class: admin.status === 'Active' ? 'badge ok' : 'badge stop' }, admin.status),
    h(
      'div',
      { class: 'row' },
      admin.id === session.administrator.id
        ? null
        : actionButton(admin.status === 'Active' ? t.lock : t.unlock, async () => {
            await call('POST', `/admins/${admin.status === 'Active' ? 'lock' : 'unlock'}/${admin.id}`);
            await reload();
          }),
      // a Pending administrator's link may have expired or the mail been lost
      admin.status === 'Pending'
        ? actionButton(t.resendInvitation, async () => {
            try {
              await call('POST', `/v2/admins/resend-invitation-email/${admin.id}`);
              context.notify(t.invitationResent);
            } catch (error) {
              context.fail(error);
            }
          })
        : null,
    ),
  ]);
  const email = h('input', { type: 'email', required: true });
  const role = h('select', {}, ...ROLES.map((name) => h('option', { value: name }, name)));
  const invite = on(
    h(
      'form',
      { class: 'row' },
      field('invite-email', t.email, email),
      field('invite-role', t.role, role),
      h('button', { type: 'submit' }, t.invite),
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      try {
        await call('POST', '/admins', { email: email.value, role: role.value });
        context.notify(t.invited);
        await reload();
      } catch (error) {
        context.fail(error);
      }
    },
  );
  root.replaceChildren(heading(t.administrators), invite, table([t.email, t.name, t.role, t.status, ''], rows, t.administrators));
}
