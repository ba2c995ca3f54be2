import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';
import { ok } from '../http/envelope';
import { IdentityFormatApplyDto, IdentityFormatDto } from './settings.dto';

/* Each route's examples, typed by their answer's class (settings.dto.ts); the format's body is its answer's shape. */

const APPLY_EXAMPLE: IdentityFormatApplyDto = {
  renamed: [{ from: 'CORP\\Jane', to: 'jane' }],
  merged: [{ into: 'jane', from: ['jane@corp.example'] }],
};

export const IDENTITY_FORMAT_DOCS = {
  read: {
    summary: "Read the account's identity name format",
    envelope: 'model',
    ok: { schema: modelEnvelope(ref(IdentityFormatDto)), example: ok<IdentityFormatDto>({ format: 'AsIs' }) },
  },
  set: {
    summary: "Set the account's identity name format (journal: Accounts ChangeNameFormat)",
    description:
      'From the next call on, every identity the API receives (user bodies and `identity` filters, access requests, `ra`, `ra/challenge`, `md`, history filters) is normalized by the format before use; under `Login` one with nothing left (`CORP\\`) is refused with 400 (200 `success: false` on the access-request endpoints). Users stored before keep their identities until `POST /settings/identity-format/apply`.',
    envelope: 'model',
    body: { type: IdentityFormatDto, example: { format: 'Login' } },
    ok: { schema: modelEnvelope(ref(IdentityFormatDto)), example: ok<IdentityFormatDto>({ format: 'Login' }) },
    errors: { 400: 'format must be "AsIs" or "Login".' },
  },
  apply: {
    summary: "Rename the account's users to the format and merge duplicates (journal: Accounts RenameAndRemoveDuplicates)",
    description:
      'In one transaction: every user whose identity is not in the format is renamed; users whose identities become one are merged into the oldest by `createdAt`, which keeps its id (union of authenticators, groups, phones and custom fields; the oldest wins a field both have; locked if any was; replay state, HOTP counters and code lockouts kept; access-request history and enrollment links moved). Empty lists under `AsIs`; a second apply renames nothing. Journal `additionalFields`: `Renamed`, `Merged` (counts).',
    envelope: 'model',
    ok: { schema: modelEnvelope(ref(IdentityFormatApplyDto)), example: ok(APPLY_EXAMPLE) },
    errors: {
      400: 'The users merged into "jane" would have 101 custom fields; a user can have at most 100. Remove some first; nothing was changed.',
    },
  },
} satisfies Record<string, RouteDoc>;
