import { AccessLanguage, maskPhoneNumber, minutesUntil, RaStatus, raSuccess, SignInPrompt, SignInRefusal } from '@twofold/domain';
import { ModelEnvelope } from '../../http/envelope';
import { SignInOutcome } from '../decision/sign-in';
import { raIdentityOf, raLanguageOf } from './ra.commands';
import { RaModelDto } from './ra.dto';
import { RaReply, raRefusalMessage, raReplyText } from './ra-replies';

/** What an answer knows beyond its status and reply; everything else of the model is null. */
export type RaFacts = Partial<Pick<RaModelDto, 'id' | 'identity' | 'authenticator' | 'authenticatorId' | 'account' | 'phone' | 'bypassed'>>;

/**
 * One answer of the `ra` family: HTTP 200 whatever the outcome, the whole model
 * every time, `success` true exactly for Granted and AwaitingAuthentication, and for a refusal the
 * `message` clients match on.
 */
export function raAnswer(status: RaStatus, reply: RaReply, language: AccessLanguage, facts: RaFacts): ModelEnvelope<RaModelDto> {
  const success = raSuccess(status);
  return {
    model: {
      id: facts.id ?? null,
      identity: facts.identity ?? null,
      status,
      replyMessage: raReplyText(reply, language),
      authenticator: facts.authenticator ?? null,
      authenticatorId: facts.authenticatorId ?? null,
      account: facts.account ?? null,
      phone: facts.phone ?? null,
      bypassed: facts.bypassed ?? false,
      countryCode: null,
      region: null,
      city: null,
    },
    success,
    message: success ? null : raRefusalMessage(reply),
  };
}

/**
 * A body the `ra` family could not use at all (a missing identity, a number for a code, text
 * PostgreSQL cannot store): Denied with the reason as `message`, nothing recorded.
 */
export function raBadRequestAnswer(body: unknown, reason: string): ModelEnvelope<RaModelDto> {
  const answer = raAnswer('Denied', { kind: 'badRequest' }, raLanguageOf(body), { identity: raIdentityOf(body) });
  return { ...answer, message: reason };
}

/**
 * The answer to an attempt of the `ra` family, in the request's language, naming the request's
 * identity. A request that is not the caller's to continue (foreign), decided, gone or superseded is
 * Denied without its user's facts.
 */
export function raAnswerOf(outcome: SignInOutcome, language: AccessLanguage, identity: string): ModelEnvelope<RaModelDto> {
  const facts: RaFacts = { id: outcome.requestId, identity, phone: outcome.found?.firstPhone ?? null };
  switch (outcome.kind) {
    case 'foreign':
      return raAnswer('Denied', { kind: outcome.reason }, language, { identity });
    case 'closed':
      return raAnswer('Denied', { kind: outcome.status === 'Expired' ? 'expired' : 'requestNotValid' }, language, facts);
    case 'gone':
    case 'superseded':
    case 'enroll':
      return raAnswer('Denied', { kind: 'requestNotValid' }, language, facts);
    case 'denied':
      return raAnswer('Denied', refusalReply(outcome.refusal, outcome.now), language, facts);
    case 'waiting':
      return raAnswer(
        'AwaitingAuthentication',
        promptReply(outcome.prompt, outcome.now, outcome.found?.firstPhone ?? null),
        language,
        facts,
      );
    case 'granted': {
      const { factor } = outcome;
      const by = factor ? { authenticator: factor.kind, authenticatorId: factor.id, account: factor.name } : { bypassed: true };
      const fewLeft = factor?.codesLeft;
      const reply: RaReply = fewLeft === undefined ? { kind: 'granted' } : { kind: 'grantedFewRecoveryCodes', codesLeft: fewLeft };
      return raAnswer('Granted', reply, language, { ...facts, ...by });
    }
    case 'pending':
      // an approval is answered once the person decided, by a later run with their answer
      throw new Error('a pending approval has no answer of its own');
  }
}

function refusalReply(refusal: SignInRefusal, now: Date): RaReply {
  switch (refusal.kind) {
    case 'lockedOut':
      return { kind: 'lockedOut', minutes: minutesUntil(refusal.until, now) };
    // the request's last attempt was a wrong code
    case 'outOfCodes':
      return { kind: 'wrongCode' };
    default:
      return refusal;
  }
}

function promptReply(prompt: SignInPrompt, now: Date, phone: string | null): RaReply {
  switch (prompt.kind) {
    case 'codeSent':
      return { kind: 'codeSent', method: prompt.method, to: phone ? maskPhoneNumber(phone) : '' };
    case 'enterCode':
      return prompt;
    case 'methodUnavailable':
      return { kind: 'deliveryUnavailableRetry', method: prompt.method };
    case 'codeAlreadyUsed':
      return { kind: 'codeAlreadyUsedRetry' };
    case 'wrongCode':
      return { kind: 'wrongCodeRetry', attemptsLeft: prompt.attemptsLeft };
    case 'lockedOut':
      return { kind: 'lockedOut', minutes: minutesUntil(prompt.until, now) };
    // only the page keeps a request waiting when no code went out; the ra family is denied (decideCheck)
    case 'codeNotSent':
      return prompt.reason === 'undeliverable'
        ? { kind: 'phoneCodeUndeliverable', method: prompt.method }
        : { kind: 'phoneCodeLimited', method: prompt.method, limit: prompt.reason };
  }
}
