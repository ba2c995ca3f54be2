/**
 * Why a request's access page shows no form: each is a final page, with its own title and text. The
 * reasons are declared here, with the texts every language must give for each, so that the pages
 * module depends on no page of a feature.
 */
export type AccessFinalReason =
  | 'unknown'
  | 'expired'
  | 'denied'
  | 'locked'
  | 'tooManyCodes'
  | 'used'
  | 'noLicense'
  | 'noOtpFactor'
  | 'factorsDisabled'
  /** the visitor's address is on a Deny IP list */
  | 'networkDenied'
  | 'forged';

/** Why an enrollment link's page shows no form. */
export type GoneReason = 'expired' | 'used' | 'revoked' | 'unknown';

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
  /** when the link stops working: `at` is `YYYY-MM-DD HH:MM`, in UTC */
  linkExpires: (at: string) => string;
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
