import { FORM_TOKEN_FIELD } from './access-form-token';

/** The form field that says the page's form applies the answer of the approval it asked (not a code). */
export const APPROVAL_FIELD = 'approval';
import { PhoneCodeMethod } from '@twofold/domain';
import { formCode, formField } from '../../pages/form-body';
import { SEND_CODE_FIELD } from './access-page-phone.view';

/** A code submitted on the access page, as the service takes it. */
export interface AccessPageForm {
  /** the anti-forgery token of the form; '' when missing or not text (verify refuses it) */
  formToken: string;
  /** digits without the spaces people type or paste; '' when missing or not text */
  code: string;
  /** the form applies the answer of the approval the page asked (no code) */
  approval: boolean;
  /** "send a code by SMS" or "call me" was pressed; null for any other value */
  send: PhoneCodeMethod | null;
}

/** The page's form body, parsed once: any other field is ignored, and a missing one is refused later by its check. */
export function parseAccessPageForm(body: unknown): AccessPageForm {
  const send = formField(body, SEND_CODE_FIELD);
  return {
    formToken: formField(body, FORM_TOKEN_FIELD),
    code: formCode(body),
    approval: formField(body, APPROVAL_FIELD) === '1',
    send: send === 'sms' || send === 'call' ? send : null,
  };
}
