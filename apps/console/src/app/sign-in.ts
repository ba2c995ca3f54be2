import { ApiError, call, Session } from './api';
import { h, on } from '@twofold/web-ui';
import { t } from './i18n';

/** `#code=…&email=…` of the mailed link: the code never reaches a server log (a fragment is not sent). */
function fromLink(): { code: string; email: string } | null {
  const params = new URLSearchParams(location.hash.slice(1));
  const code = params.get('code');
  const email = params.get('email');
  return code && email ? { code, email } : null;
}

/** The two steps of the sign-in: the e-mail, then the mailed code with the authenticator's code. */
export function signInScreen(root: HTMLElement, signedIn: (session: Session) => void, notice?: string): void {
  const link = fromLink();
  const status = h('p', { role: 'alert', class: 'error', hidden: true });
  const show = (message: string | null) => {
    status.textContent = message ?? '';
    status.hidden = !message;
  };

  const emailInput = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true, id: 'email' });
  const emailForm = h(
    'form',
    { class: 'stack', 'aria-labelledby': 'sign-in-title' },
    h('div', { class: 'field' }, h('label', { for: 'email' }, t.email), emailInput),
    h('button', { type: 'submit' }, t.sendCode),
  );

  const codeInput = h('input', {
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{8}',
    maxlength: '8',
    required: true,
    id: 'email-code',
  });
  const totpInput = h('input', {
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: '6',
    required: true,
    id: 'second-factor',
  });
  const codesForm = h(
    'form',
    { class: 'stack', hidden: true },
    h('p', { class: 'muted', id: 'code-sent' }, t.codeSent),
    h('div', { class: 'field' }, h('label', { for: 'email-code' }, t.emailCode), codeInput),
    h('div', { class: 'field' }, h('label', { for: 'second-factor' }, t.secondFactor), totpInput),
    h('button', { type: 'submit' }, t.continue),
    on(h('button', { type: 'button', class: 'link' }, t.startOver), 'click', () => {
      codesForm.hidden = true;
      emailForm.hidden = false;
      emailInput.focus();
    }),
  );

  const toCodes = () => {
    emailForm.hidden = true;
    codesForm.hidden = false;
    (codeInput.value ? totpInput : codeInput).focus();
  };

  on(emailForm, 'submit', async (event) => {
    event.preventDefault();
    show(null);
    try {
      await call('POST', '/console/api/sign-in', { email: emailInput.value, language: document.documentElement.lang });
      toCodes();
    } catch (error) {
      show(error instanceof ApiError ? error.message : t.failedRequest);
    }
  });
  on(codesForm, 'submit', async (event) => {
    event.preventDefault();
    show(null);
    try {
      const session = await call<Session>('POST', '/console/api/sign-in/finish', {
        email: emailInput.value,
        emailCode: codeInput.value.trim(),
        secondFactorCode: totpInput.value.trim(),
      });
      signedIn(session);
    } catch (error) {
      totpInput.value = '';
      show(error instanceof ApiError ? error.message : t.failedRequest);
      totpInput.focus();
    }
  });

  root.replaceChildren(
    h(
      'section',
      { class: 'card narrow' },
      h('h1', { id: 'sign-in-title' }, t.signIn),
      h('p', { class: 'muted' }, t.signInLead),
      notice ? h('p', { role: 'status', class: 'notice' }, notice) : null,
      status,
      emailForm,
      codesForm,
    ),
  );
  const useLink = (found: { code: string; email: string }) => {
    history.replaceState(null, '', location.pathname);
    emailInput.value = found.email;
    codeInput.value = found.code;
    toCodes();
  };
  if (link) useLink(link);
  else emailInput.focus();
  // the mailed link opened in this very tab changes only the fragment: no new page is loaded
  window.onhashchange = () => {
    const found = fromLink();
    if (found) useLink(found);
  };
}
