import { h, on } from '@twofold/web-ui';
import { call, model } from './api';
import { actionButton, field } from './dom';
import { t } from './i18n';
import { formError } from './parts';
import { may, ScreenContext } from './screens';

/**
 * Creating, changing and deleting users (the `users.manage` permission: Support 4 and Admin), through
 * the account API as its clients call it: `POST /users`, `PUT /v2/users/{id}` with the fields that
 * changed, `DELETE /users/{id}`. The service checks and journals them; the API's refusal is shown as
 * it came (`Email is not a valid e-mail address.`).
 */

/** The users screen's form for a new user; null for a role that may not create users. */
export function newUserForm(context: ScreenContext): HTMLElement | null {
  if (!may(context.session, 'users.manage')) return null;
  const identity = h('input', { required: true, autocomplete: 'off' });
  const name = h('input', { autocomplete: 'off' });
  const email = h('input', { type: 'email', autocomplete: 'off' });
  const phone = h('input', { type: 'tel', autocomplete: 'off', placeholder: '+7…' });
  const refused = formError();
  const form = on(
    h(
      'form',
      { class: 'row', 'aria-label': t.newUser },
      field('new-user-identity', t.identity, identity),
      field('new-user-name', t.name, name),
      field('new-user-email', t.email, email),
      field('new-user-phone', t.phone, phone),
      h('button', { type: 'submit' }, t.createUser),
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      refused.clear();
      const body: Record<string, string> = { Identity: identity.value.trim() };
      if (name.value.trim()) body['Name'] = name.value.trim();
      if (email.value.trim()) body['Email'] = email.value.trim();
      if (phone.value.trim()) body['Phone'] = phone.value.trim();
      try {
        const created = await model<{ identity: string }>('POST', '/users', body);
        // the user's own screen is the confirmation
        location.hash = `#/user?identity=${encodeURIComponent(created.identity)}`;
      } catch (error) {
        refused.show(error);
      }
    },
  );
  return h('details', { class: 'card' }, h('summary', {}, t.newUser), form, refused.element);
}

/** A user's identity, name and e-mail changed, or the user deleted; nothing for a role that may not. */
export function userChanges(
  context: ScreenContext,
  user: { id: string; identity: string; name: string | null; email: string | null },
  reload: () => Promise<void>,
): Node[] {
  if (!may(context.session, 'users.manage')) return [];
  const identity = h('input', { required: true, value: user.identity, autocomplete: 'off' });
  const name = h('input', { value: user.name ?? '', autocomplete: 'off' });
  const email = h('input', { type: 'email', value: user.email ?? '', autocomplete: 'off' });
  const refused = formError();
  const edit = on(
    h(
      'form',
      { class: 'row', 'aria-label': t.editUser },
      field('user-identity', t.identity, identity),
      field('user-name', t.name, name),
      field('user-email', t.email, email),
      h('button', { type: 'submit' }, t.save),
    ),
    'submit',
    async (event) => {
      event.preventDefault();
      refused.clear();
      // only what changed: an unchanged identity sent again would be checked again for nothing
      const fields = [
        ['Identity', identity.value.trim(), user.identity],
        ['Name', name.value.trim(), user.name ?? ''],
        ['Email', email.value.trim(), user.email ?? ''],
      ]
        .filter(([, now, before]) => now !== before)
        .map(([Name, Value]) => ({ Name, Value }));
      if (fields.length === 0) return;
      try {
        const changed = await model<{ identity: string }>('PUT', `/v2/users/${user.id}`, { Fields: fields });
        context.notify(t.saved);
        if (changed.identity !== user.identity) location.hash = `#/user?identity=${encodeURIComponent(changed.identity)}`;
        else await reload();
      } catch (error) {
        refused.show(error);
      }
    },
  );
  const remove = actionButton(
    t.deleteUser,
    async () => {
      if (!confirm(t.deleteUserConfirm(user.identity))) return;
      try {
        await call('DELETE', `/users/${user.id}`);
        location.hash = '#/users';
      } catch (error) {
        refused.show(error);
      }
    },
    { class: 'danger' },
  );
  return [h('h2', {}, t.editUser), edit, h('div', { class: 'row' }, remove), refused.element];
}
