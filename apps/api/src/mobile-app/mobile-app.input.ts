import { ValidationFailed } from '@twofold/domain';
import { PushSubscriptionKeys } from '@twofold/persistence';
import { parseChoice, SignedEnvelope } from './device-signature';
import { parsePushSubscription } from './push-subscription';
import { DecisionRequest, EnrollRequest } from './mobile-app.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function objectOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationFailed('The body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** The signature fields every device request carries: `counter` (a positive integer), `time` (Unix seconds), `signature` (base64url). */
function envelopeOf(body: Record<string, unknown>, withDevice: boolean): SignedEnvelope {
  const { deviceId, counter, time, signature } = body;
  if (withDevice && (typeof deviceId !== 'string' || !UUID.test(deviceId)))
    throw new ValidationFailed('deviceId must be the id the enrollment gave.');
  if (typeof counter !== 'number' || !Number.isSafeInteger(counter) || counter < 1)
    throw new ValidationFailed('counter must be a positive integer.');
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0) throw new ValidationFailed('time must be Unix seconds.');
  if (typeof signature !== 'string' || signature.length > 200 || !BASE64URL.test(signature))
    throw new ValidationFailed('signature must be base64url.');
  return {
    deviceId: withDevice ? (deviceId as string).toLowerCase() : null,
    counter,
    time,
    signature: Buffer.from(signature, 'base64url'),
  };
}

export function parseEnrollRequest(raw: unknown): EnrollRequest {
  const body = objectOf(raw);
  const { token, publicKey, name } = body;
  if (typeof token !== 'string' || token.length > 100 || !BASE64URL.test(token))
    throw new ValidationFailed('token must be the enrollment token.');
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.trim().length === 0 || name.length > 100))
    throw new ValidationFailed('name must be a text of 1 to 100 characters.');
  return {
    token,
    publicKey,
    name: typeof name === 'string' ? name.trim() : null,
    subscription: parsePushSubscription(body['subscription']),
    envelope: envelopeOf(body, false),
  };
}

export function parseSignedRequest(raw: unknown): SignedEnvelope {
  return envelopeOf(objectOf(raw), true);
}

export function parseDecisionRequest(raw: unknown): DecisionRequest {
  const body = objectOf(raw);
  const { approvalId, nonce } = body;
  if (typeof approvalId !== 'string' || !UUID.test(approvalId)) throw new ValidationFailed('approvalId must be an approval id.');
  if (typeof nonce !== 'string' || nonce.length > 100 || !BASE64URL.test(nonce))
    throw new ValidationFailed('nonce must be the nonce given with the approval.');
  const choice = parseChoice(body['choice']);
  if (!choice) throw new ValidationFailed('choice must be "approve", "notMe" or a number from 10 to 99.');
  return { approvalId: approvalId.toLowerCase(), nonce, choice, envelope: envelopeOf(body, true) };
}

export function parseSubscriptionRequest(raw: unknown): { subscription: PushSubscriptionKeys | null; envelope: SignedEnvelope } {
  const body = objectOf(raw);
  return { subscription: parsePushSubscription(body['subscription']), envelope: envelopeOf(body, true) };
}
