import { ApiError, call, Session, useSession } from './api';
import { h, on } from '@twofold/web-ui';
import { language, t } from './i18n';
import {
  administratorsScreen,
  dashboardScreen,
  journalScreen,
  may,
  resourcesScreen,
  ScreenContext,
  userScreen,
  usersScreen,
} from './screens';
import { signInScreen } from './sign-in';
import { groupScreen, groupsScreen } from './groups';
import { historyScreen } from './history';
import { ipListsScreen } from './ip-lists';
import { identityFormatScreen, settingsScreen } from './settings';
import { accountApiScreen } from './account-api';

/** The console's screens by their address (`#/users?identity=…`), each with the permission it needs. */
const ROUTES: Record<string, { label?: string; permission: string; draw(context: ScreenContext, query: URLSearchParams): Promise<void> }> =
  {
    dashboard: { label: t.dashboard, permission: 'users.read', draw: dashboardScreen },
    users: { label: t.users, permission: 'users.read', draw: usersScreen },
    user: { permission: 'users.read', draw: userScreen },
    groups: { label: t.groups, permission: 'users.read', draw: groupsScreen },
    group: { permission: 'users.read', draw: groupScreen },
    history: { label: t.history, permission: 'users.read', draw: historyScreen },
    journal: { label: t.journal, permission: 'journal.read', draw: journalScreen },
    resources: { label: t.resources, permission: 'account.manage', draw: resourcesScreen },
    'ip-lists': { label: t.ipLists, permission: 'account.manage', draw: ipListsScreen },
    admins: { label: t.administrators, permission: 'account.manage', draw: administratorsScreen },
    settings: { label: t.settings, permission: 'account.manage', draw: settingsScreen },
    'identity-format': { permission: 'account.manage', draw: identityFormatScreen },
    'account-api': { label: t.accountApi, permission: 'account.manage', draw: accountApiScreen },
  };

const app = document.getElementById('app') as HTMLElement;
document.documentElement.lang = language;
document.title = t.title;

function signedOut(notice?: string): void {
  useSession(null, () => undefined);
  signInScreen(app, signedIn, notice);
}

function signedIn(session: Session): void {
  useSession(session.csrfToken, () => signedOut(t.signedOut));
  const main = h('main', { id: 'screen', tabindex: '-1' });
  const status = h('p', { role: 'status', class: 'notice', hidden: true });
  const nav = h(
    'nav',
    { 'aria-label': t.title },
    h(
      'ul',
      {},
      ...Object.entries(ROUTES)
        .filter(([, route]) => route.label && may(session, route.permission))
        .map(([name, route]) => h('li', {}, h('a', { href: `#/${name}`, 'data-route': name }, route.label ?? name))),
    ),
  );
  const signOut = on(h('button', { type: 'button', class: 'link' }, t.signOut), 'click', async () => {
    await call('DELETE', '/console/api/session').catch(() => undefined);
    signedOut();
  });
  const selfLock = on(h('button', { type: 'button', class: 'link danger' }, t.selfLock), 'click', async () => {
    if (!confirm(t.selfLockConfirm)) return;
    try {
      await call('POST', '/console/api/self-lock');
      signedOut();
    } catch (error) {
      fail(error);
    }
  });
  const header = h(
    'header',
    { class: 'top' },
    h('p', { class: 'brand' }, t.title),
    nav,
    h(
      'p',
      { class: 'who' },
      h('span', { 'data-testid': 'who' }, `${session.administrator.identity} · ${session.administrator.role}`),
      ' ',
      signOut,
      ' ',
      selfLock,
    ),
  );
  app.replaceChildren(header, status, main);

  function notify(message: string): void {
    status.textContent = message;
    status.className = 'notice';
    status.hidden = false;
  }
  function fail(error: unknown): void {
    status.textContent = error instanceof ApiError ? error.message : `${t.failedRequest}: ${String(error)}`;
    status.className = 'notice error';
    status.hidden = false;
  }

  // a screen whose data arrives after the next screen was asked for (the dashboard drawn after sign-in,
  // then a link followed at once) draws into a container no longer shown, and says nothing
  let shown = 0;
  async function show(): Promise<void> {
    const generation = ++shown;
    const current = () => generation === shown;
    const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
    const name = path && ROUTES[path] ? path : 'dashboard';
    const route = ROUTES[name];
    status.hidden = true;
    for (const link of nav.querySelectorAll('a')) {
      if (link.dataset['route'] === name) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (!may(session, route.permission)) {
      main.replaceChildren(h('p', { role: 'alert' }, t.notAllowed));
      return;
    }
    const screen = h('div', {});
    main.replaceChildren(screen);
    const failHere = (error: unknown) => (current() ? fail(error) : undefined);
    const notifyHere = (message: string) => (current() ? notify(message) : undefined);
    try {
      await route.draw({ root: screen, session, fail: failHere, notify: notifyHere }, new URLSearchParams(search ?? ''));
      if (current()) screen.querySelector<HTMLElement>('h1')?.focus();
    } catch (error) {
      failHere(error);
    }
  }
  window.onhashchange = () => void show();
  void show();
}

/** A console opened in a new tab: its session, if the browser has one, and the CSRF token for it. */
async function start(): Promise<void> {
  if (new URLSearchParams(location.hash.slice(1)).has('code')) return signedOut();
  try {
    signedIn(await call<Session>('GET', '/console/api/session'));
  } catch {
    signedOut();
  }
}

void start();
