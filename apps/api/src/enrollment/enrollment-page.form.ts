import { formCode } from '../pages/form-body';

/** A code submitted on the enrollment link's page, as the service takes it. */
export interface EnrollmentPageForm {
  /** digits without the spaces people type or paste; '' when missing or not text */
  code: string;
}

export function parseEnrollmentPageForm(body: unknown): EnrollmentPageForm {
  return { code: formCode(body) };
}
