import type { AccessFinalReason } from '../../access/page/access-page.view';
import type { GoneReason } from '../../enrollment/enrollment-page.view';

/**
 * Every text the pages show, one table per language (en.ts, ru.ts). Each table is declared with this
 * type, so a key missing from one language, or one language's extra key, does not compile.
 */
export interface PageMessages {
  enrollment: EnrollmentMessages;
  access: AccessMessages;
}

/** The enrollment link's page, and the enrollment section the access page reuses. */
export interface EnrollmentMessages extends Record<GoneReason, string> {
  title: string;
  intro: (who: string) => string;
  scan: string;
  qr: string;
  orScan: string;
  manual: string;
  openInApp: string;
  copy: string;
  copied: string;
  copiedStatus: string;
  codeLabel: string;
  codeTitle: string;
  submit: string;
  wrongCode: (left: number) => string;
  doneTitle: string;
  done: string;
  goneTitle: string;
}

export interface AccessMessages {
  enrollTitle: (resource: string) => string;
  codeTitle: (resource: string) => string;
  codeIntro: (identity: string) => string;
  codeLabel: string;
  codePattern: string;
  submit: string;
  expiresIn: (minutes: number) => string;
  wrongCode: (left: number) => string;
  codeAlreadyUsed: string;
  lockedOut: (minutes: number) => string;
  grantedTitle: string;
  granted: string;
  grantedNoCallback: string;
  grantedFramed: string;
  continue: string;
  finalTitle: Record<AccessFinalReason, string>;
  final: Record<AccessFinalReason, string>;
  reload: string;
}
