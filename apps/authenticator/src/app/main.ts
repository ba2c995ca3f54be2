import { languageOf, textsFor } from '../shared/i18n';
import { totpCode } from '../shared/totp';
import { ApiError, decide, DecisionResult, enroll, pendingApprovals, PendingApproval, setSubscription } from './api';
import { h, on } from '@twofold/web-ui';
import { logo } from './dom';
import { currentSubscription, pushSupported, registerWorker, subscribe } from './push';
import { allDevices, DeviceRecord } from './store';

const language = languageOf(navigator.language);
const t = textsFor(language);
const root = document.getElementById('app') as HTMLElement;
document.documentElement.lang = language;
document.title = t.title;

interface State {
  devices: DeviceRecord[];
  approvals: { device: DeviceRecord; approval: PendingApproval }[];
  offline: boolean;
  /** the approval a notification was opened for */
  focusApproval: string | null;
  /** accounts whose code is shown */
  shownCodes: Set<string>;
}
const state: State = { devices: [], approvals: [], offline: false, focusApproval: null, shownCodes: new Set() };

/** Counts the screens shown: a fetch started for one screen must not replace the one the user went on to. */
let screens = 0;

function screen(...children: (Node | null | false)[]): void {
  screens++;
  root.replaceChildren(h('p', { class: 'brand' }, logo(), t.title), ...children.filter((child): child is Node => Boolean(child)));
}

function card(...children: (Node | string | null | false)[]): HTMLElement {
  return h('section', { class: 'card' }, ...children);
}

function fragmentParameter(name: string): string | null {
  return new URLSearchParams(location.hash.slice(1)).get(name);
}

function clearFragment(): void {
  history.replaceState(null, '', location.pathname + location.search);
}

// ---------------------------------------------------------------------------------------------
// enrollment: `#enroll=<token>` (the token in the fragment never reaches a server log or a Referer)

function showEnrollment(token: string): void {
  const button = h('button', { type: 'button', class: 'button primary', id: 'enroll-button' }, t.enrollButton);
  const status = h('p', { class: 'muted', role: 'status' });
  on(button, 'click', () => void runEnrollment(token, button, status));
  screen(card(h('h1', {}, t.enrollTitle), h('p', {}, t.enrollLead), button, status));
  button.focus();
}

async function runEnrollment(token: string, button: HTMLButtonElement, status: HTMLElement): Promise<void> {
  button.disabled = true;
  status.textContent = t.enrolling;
  try {
    // asked from the click: browsers ask for the notification permission only from a user's gesture
    const subscription = await subscribe();
    const device = await enroll(token, subscription);
    clearFragment();
    state.devices = await allDevices();
    const next = h('button', { type: 'button', class: 'button primary', id: 'enrolled-continue' }, t.back);
    on(next, 'click', () => void showHome());
    screen(
      card(
        h('h1', { id: 'enrolled', tabindex: '-1' }, t.enrolledTitle),
        h('p', {}, t.enrolledLead(device.accountName, device.identity)),
        !subscription && h('p', { class: 'notice' }, t.enrolledNoPush),
        accountCode(device),
        next,
      ),
    );
    (document.getElementById('enrolled') as HTMLElement).focus();
  } catch (error) {
    button.disabled = false;
    status.textContent = error instanceof ApiError && error.status === 410 ? t.enrollGone : t.enrollFailed;
    status.className = 'notice stop';
    if (error instanceof ApiError && error.status === 410) {
      clearFragment();
      button.hidden = true;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// TOTP codes, computed here from the non-extractable key: offline too

function accountCode(device: DeviceRecord): HTMLElement {
  const shown = state.shownCodes.has(device.deviceId);
  const code = h('output', { class: 'totp-code', 'aria-live': 'polite', hidden: !shown });
  const left = h('span', { class: 'muted totp-left', hidden: !shown });
  const toggle = h(
    'button',
    { type: 'button', class: 'button secondary show-code', 'aria-expanded': String(shown) },
    shown ? t.hideCode : t.showCode,
  );
  const update = async () => {
    const now = await totpCode(device.totpKey, Date.now(), { digits: device.digits, period: device.period });
    code.textContent = `${now.code.slice(0, 3)} ${now.code.slice(3)}`;
    code.dataset['code'] = now.code;
    left.textContent = t.secondsLeft(now.secondsLeft);
  };
  let timer: number | undefined;
  const start = () => {
    void update();
    timer = window.setInterval(() => {
      if (!code.isConnected) window.clearInterval(timer);
      else void update();
    }, 1000);
  };
  on(toggle, 'click', () => {
    const showing = code.hidden;
    code.hidden = left.hidden = !showing;
    toggle.textContent = showing ? t.hideCode : t.showCode;
    toggle.setAttribute('aria-expanded', String(showing));
    if (showing) {
      state.shownCodes.add(device.deviceId);
      start();
    } else {
      state.shownCodes.delete(device.deviceId);
      window.clearInterval(timer);
    }
  });
  if (shown) start();
  return h(
    'div',
    { class: 'account', 'data-device-id': device.deviceId },
    h('p', { class: 'account-name' }, h('strong', {}, device.accountName), ' · ', device.identity),
    h('div', { class: 'code-row', 'aria-label': t.codeFor(device.accountName), role: 'group' }, code, left),
    toggle,
  );
}

// ---------------------------------------------------------------------------------------------
// pending approvals: fetched on open, on a push (the service worker tells us), on coming back

async function refreshApprovals(): Promise<void> {
  const found: State['approvals'] = [];
  let offline = false;
  for (const device of state.devices) {
    try {
      for (const approval of await pendingApprovals(device)) found.push({ device, approval });
    } catch (error) {
      if (!(error instanceof ApiError)) offline = true;
    }
  }
  state.approvals = found;
  state.offline = offline;
}

function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(language === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function approvalCard(device: DeviceRecord, approval: PendingApproval): HTMLElement {
  const send = (choice: 'approve' | 'notMe' | number) => void sendDecision(device, approval, choice, buttons);
  const buttons: HTMLButtonElement[] = [];
  const button = (label: string, className: string, choice: 'approve' | 'notMe' | number, extra: Record<string, string> = {}) => {
    const element = on(h('button', { type: 'button', class: `button ${className}`, ...extra }, label), 'click', () => send(choice));
    buttons.push(element);
    return element;
  };
  const headingId = `approval-${approval.id}`;
  const details = h(
    'p',
    { class: 'muted' },
    `${approval.account} · ${device.identity}`,
    h('br'),
    approval.address ? `${t.from(approval.address)}, ` : '',
    formatTime(approval.at),
  );
  const choices = approval.choices
    ? h(
        'div',
        { class: 'choices', role: 'group', 'aria-labelledby': `${headingId}-pick` },
        ...approval.choices.map((number) => button(String(number), 'choice', number, { 'data-number': String(number) })),
      )
    : null;
  return h(
    'article',
    { class: 'card approval', 'data-approval-id': approval.id, 'aria-labelledby': headingId },
    h('h2', { id: headingId, tabindex: '-1' }, t.signInTo(approval.resource)),
    details,
    approval.choices && h('p', { id: `${headingId}-pick`, class: 'pick' }, t.pickNumber),
    choices,
    h(
      'div',
      { class: 'actions' },
      !approval.choices && button(t.approve, 'primary approve', 'approve'),
      button(t.notMe, 'danger not-me', 'notMe'),
    ),
  );
}

async function sendDecision(
  device: DeviceRecord,
  approval: PendingApproval,
  choice: 'approve' | 'notMe' | number,
  buttons: HTMLButtonElement[],
): Promise<void> {
  buttons.forEach((button) => (button.disabled = true));
  let result: DecisionResult | 'failed';
  try {
    result = await decide(device, approval, choice);
  } catch {
    result = 'failed';
  }
  const titles = { approved: t.approved, rejected: t.rejected, ignored: t.ignored, failed: t.failed };
  const leads = { approved: t.approvedLead, rejected: t.rejectedLead, ignored: t.ignoredLead, failed: '' };
  const back = on(h('button', { type: 'button', class: 'button primary' }, t.back), 'click', () => void showHome());
  screen(
    card(
      h('h1', { id: 'decision-result', 'data-result': result, class: `result ${result}`, tabindex: '-1' }, titles[result]),
      h('p', {}, t.signInTo(approval.resource)),
      leads[result] && h('p', { class: 'muted' }, leads[result]),
      back,
    ),
  );
  (document.getElementById('decision-result') as HTMLElement).focus();
}

// ---------------------------------------------------------------------------------------------
// the home screen: approvals waiting, then the accounts and their codes

async function showHome(): Promise<void> {
  const shown = screens;
  state.devices = await allDevices();
  if (state.devices.length === 0) {
    screen(card(h('h1', {}, t.accounts), h('p', {}, t.noAccounts)));
    return;
  }
  await refreshApprovals();
  // the user answered an approval (or went on) meanwhile: that screen stays
  if (screens !== shown) return;
  renderHome();
  void keepSubscriptionCurrent();
}

function renderHome(): void {
  const refresh = on(
    h('button', { type: 'button', class: 'button secondary', id: 'refresh' }, t.refresh),
    'click',
    () => void refreshApprovals().then(renderHome),
  );
  const approvals = state.approvals.map(({ device, approval }) => approvalCard(device, approval));
  const notifications =
    pushSupported() && Notification.permission !== 'granted'
      ? h(
          'p',
          { class: 'notice' },
          t.notificationsOff,
          ' ',
          on(h('button', { type: 'button', class: 'link-button' }, t.turnOnNotifications), 'click', () => void turnOnNotifications()),
        )
      : null;
  screen(
    h('h1', { class: 'section-title', id: 'pending-title' }, t.pending),
    state.offline && h('p', { class: 'notice', id: 'offline' }, t.offline),
    ...(approvals.length > 0 ? approvals : [h('p', { class: 'muted', id: 'no-pending' }, t.noPending)]),
    refresh,
    h('h2', { class: 'section-title' }, t.accounts),
    card(...state.devices.map(accountCode)),
    notifications,
  );
  if (state.focusApproval) {
    document.getElementById(`approval-${state.focusApproval}`)?.focus();
    state.focusApproval = null;
    clearFragment();
  }
}

async function turnOnNotifications(): Promise<void> {
  const subscription = await subscribe();
  if (subscription) for (const device of state.devices) await setSubscription(device, subscription).catch(() => undefined);
  renderHome();
}

/** Browsers renew subscriptions: the service gets the current one (signed) whenever it changed. */
async function keepSubscriptionCurrent(): Promise<void> {
  const subscription = await currentSubscription().catch(() => null);
  if (!subscription) return;
  for (const device of state.devices)
    if (device.pushEndpoint !== subscription.endpoint) await setSubscription(device, subscription).catch(() => undefined);
}

async function start(): Promise<void> {
  if (!window.crypto?.subtle || !window.indexedDB) {
    screen(card(h('p', { class: 'notice stop' }, t.unsupported)));
    return;
  }
  void registerWorker();
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; approvalId?: string } | null;
    if (data?.type !== 'approval') return;
    // the enrollment screen waits for its click; anywhere else a new sign-in comes first
    if (document.getElementById('enroll-button')) return;
    state.focusApproval = data.approvalId ?? null;
    void showHome();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && document.getElementById('pending-title')) void showHome();
  });
  const token = fragmentParameter('enroll');
  if (token) {
    showEnrollment(token);
    return;
  }
  state.focusApproval = fragmentParameter('approval');
  await showHome();
}

screen(h('p', { class: 'muted' }, t.loading));
void start();
