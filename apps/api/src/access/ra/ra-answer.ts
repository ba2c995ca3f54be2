import { AccessLanguage, raIdentityOf, raLanguageOf, RaStatus, raSuccess } from '@twofold/domain';
import { ModelEnvelope } from '../../http/envelope';
import { RaModelDto } from './ra.dto';
import { RaReply, raRefusalMessage, raReplyText } from './ra-replies';

/** What an answer knows beyond its status and reply; everything else of the model is null. */
export type RaFacts = Partial<Pick<RaModelDto, 'id' | 'identity' | 'authenticator' | 'authenticatorId' | 'account' | 'phone' | 'bypassed'>>;

/**
 * One answer of the `ra` family (CONTRACT §8.1-8.2): HTTP 200 whatever the outcome, the whole model
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
