import { maskPhoneNumber, SignInPrompt } from '@twofold/domain';
import { UserForCodeCheck } from '@twofold/persistence';
import { otpAuthenticators } from '../decision/access-otp';
import { AccessPhoneModel } from './access-page-phone.view';

/**
 * The code prompt's phone offer for a user with a phone (null without one): where codes go, masked
 * (the number itself never reaches the page), and what the last press came to (`prompt`, the
 * decision's answer to it).
 */
export function phoneOffer(found: UserForCodeCheck | null, prompt: SignInPrompt | null): AccessPhoneModel | null {
  if (!found?.firstPhone) return null;
  return {
    to: maskPhoneNumber(found.firstPhone),
    tokens: otpAuthenticators(found.authenticators).length > 0,
    ...(prompt?.kind === 'codeSent' ? { sent: prompt.method } : {}),
    ...(prompt?.kind === 'codeNotSent' ? { notSent: { method: prompt.method, reason: prompt.reason } } : {}),
  };
}
