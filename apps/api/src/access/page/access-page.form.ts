import { FORM_TOKEN_FIELD } from './access-form-token';
import { formCode, formField } from '../../pages/form-body';

/** A code submitted on the access page, as the service takes it. */
export interface AccessPageForm {
  /** the anti-forgery token of the form; '' when missing or not text (verify refuses it) */
  formToken: string;
  /** digits without the spaces people type or paste; '' when missing or not text */
  code: string;
}

/** The page's form body, parsed once: any other field is ignored, and a missing one is refused later by its check. */
export function parseAccessPageForm(body: unknown): AccessPageForm {
  return { formToken: formField(body, FORM_TOKEN_FIELD), code: formCode(body) };
}
