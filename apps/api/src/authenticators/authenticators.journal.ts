import { AuthenticatorKindName, parseAuthenticatorKind } from '@twofold/domain';
import { JournalFields, JournalRequest } from '@twofold/journal';

function kindNamed(type: string | undefined): AuthenticatorKindName | undefined {
  try {
    return parseAuthenticatorKind(type ?? '');
  } catch {
    return undefined;
  }
}

/**
 * `/users/{id}/authenticators/{type}/{authenticatorId}`: what the path names, as sent (the kind by its
 * name when it is one), journaled even when the path is refused; the service replaces each with the
 * record found.
 */
export function journalPathAuthenticator({ params }: JournalRequest): JournalFields<string | undefined> {
  return { UserId: params['id'], AuthenticatorKind: kindNamed(params['type']), AuthenticatorId: params['authenticatorId'] };
}
