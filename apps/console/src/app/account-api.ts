import { h } from '@twofold/web-ui';
import { call } from './api';
import { actionButton } from './dom';
import { t } from './i18n';
import { ScreenContext } from './screens';

interface AccountApi {
  enabled: boolean;
  apiKey: string | null;
}

interface AccountApiSecret extends AccountApi {
  apiKey: string;
  apiSecret: string;
}

/**
 * The account's own API (an Admin's): its key, its secret on request (each display journaled), a new
 * secret shown once, and the switch. The API key's calls are refused while it is off; the console keeps
 * working, so turning it back on is always at hand.
 */
export async function accountApiScreen(context: ScreenContext): Promise<void> {
  const api = await call<AccountApi>('GET', '/console/api/account-api');
  const reload = () => accountApiScreen(context).catch(context.fail);
  const revealed = h('div', { 'aria-live': 'polite' });
  const reveal = (shown: AccountApiSecret) =>
    revealed.replaceChildren(
      h(
        'section',
        { class: 'card', role: 'dialog', 'aria-label': t.apiSecret },
        h('h2', {}, t.apiSecret),
        h('p', { class: 'muted' }, t.secretOnce),
        h('p', { class: 'secret', 'data-testid': 'account-api-secret' }, shown.apiSecret),
      ),
    );
  const run = (action: () => Promise<void>) => async () => {
    try {
      await action();
    } catch (error) {
      context.fail(error);
    }
  };
  const actions = h('div', { class: 'row' });
  if (api.apiKey) {
    actions.append(
      actionButton(
        t.showSecret,
        run(async () => reveal(await call<AccountApiSecret>('POST', '/console/api/account-api/secret/display'))),
      ),
      actionButton(
        t.newSecret,
        run(async () => {
          if (!confirm(t.newApiSecretConfirm)) return;
          reveal(await call<AccountApiSecret>('POST', '/console/api/account-api/secret'));
        }),
      ),
    );
  }
  actions.append(
    api.enabled
      ? actionButton(
          t.disableApi,
          run(async () => {
            if (!confirm(t.disableApiConfirm)) return;
            await call('POST', '/console/api/account-api/disable');
            await reload();
            context.notify(t.apiDisabled);
          }),
          { class: 'danger-fill' },
        )
      : actionButton(
          t.enableApi,
          run(async () => {
            await call('POST', '/console/api/account-api/enable');
            await reload();
            context.notify(t.apiEnabled);
          }),
        ),
  );
  context.root.replaceChildren(
    h('p', {}, h('a', { href: '#/settings' }, `← ${t.settings}`)),
    h('h1', { tabindex: '-1' }, t.accountApi),
    h('p', { class: 'muted' }, t.accountApiLead),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, t.status),
      h(
        'dd',
        {},
        h(
          'span',
          { class: api.enabled ? 'badge ok' : 'badge stop', 'data-testid': 'account-api-status' },
          api.enabled ? t.apiOn : t.apiOff,
        ),
      ),
      h('dt', {}, t.apiKey),
      h(
        'dd',
        {},
        api.apiKey ? h('code', { 'data-testid': 'account-api-key' }, api.apiKey) : h('span', { class: 'muted' }, t.apiNeverEnabled),
      ),
    ),
    actions,
    revealed,
  );
}
