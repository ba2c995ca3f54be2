import { AccessRequestInput } from '@twofold/domain';
import { NewAccessRequest } from '@twofold/persistence';

/**
 * The stored form of an access request a client makes for the access page (`POST /access/requests`,
 * and the self-service portals' login service): one mapping, so both record the same request.
 */
export function pageRequestRow(resourceId: string, input: AccessRequestInput, createdAt: Date): NewAccessRequest {
  return {
    resourceId,
    userId: null,
    identity: input.identity,
    email: input.email,
    phone: input.phone,
    language: input.language,
    claims: input.claims,
    callbackAction: input.callback?.action ?? null,
    callbackTarget: input.callback?.target ?? null,
    signUpGroups: input.signUpGroups.length > 0 ? input.signUpGroups : null,
    createdAt,
  };
}
