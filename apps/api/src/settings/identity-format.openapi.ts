import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';
import { ok } from '../http/envelope';
import { IdentityFormatApplyDto, IdentityFormatApplyProgressDto, IdentityFormatDryRunDto, IdentityFormatDto } from './settings.dto';

/* Each route's examples, typed by their answer's class (settings.dto.ts); the format's body is its answer's shape. */

const APPLY_EXAMPLE: IdentityFormatApplyDto = {
  renamed: [{ from: 'CORP\\Jane', to: 'jane' }],
  merged: [{ into: 'jane', from: ['jane@corp.example'] }],
};

const DRY_RUN_EXAMPLE: IdentityFormatDryRunDto = {
  format: 'Login',
  users: 1200,
  renamedCount: 1,
  mergedCount: 1,
  ...APPLY_EXAMPLE,
  conflicts: [],
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
    query: [
      {
        name: 'progressId',
        required: false,
        type: String,
        format: 'uuid',
        description:
          'an id the caller chooses, to follow the apply with `GET /settings/identity-format/apply/{id}` while this call waits for its answer',
      },
    ],
    ok: { schema: modelEnvelope(ref(IdentityFormatApplyDto)), example: ok(APPLY_EXAMPLE) },
    errors: {
      400: 'The users merged into "jane" would have 101 custom fields; a user can have at most 100. Remove some first; nothing was changed.',
    },
  },
  progress: {
    summary: 'Where an apply started with a progressId stands',
    description:
      '`planning` while the users are read and locked; `writing` with `done` of `total` user rows written (merged users moved and deleted, survivors and renamed users updated), advancing batch by batch; `done` once committed, `failed` once rolled back. Read by the account that started it, for 15 minutes, on the API instance running the apply.',
    envelope: 'model',
    params: [{ name: 'id', description: 'the progressId of the apply' }],
    ok: {
      schema: modelEnvelope(ref(IdentityFormatApplyProgressDto)),
      example: ok<IdentityFormatApplyProgressDto>({
        id: '0b7e4c1a-5d2f-4e8a-9c3b-1f2e3d4c5b6a',
        state: 'writing',
        done: 3000,
        total: 12000,
      }),
    },
    errors: { 404: 'Apply not found.' },
  },
  dryRun: {
    summary: 'What the apply would do now, changing nothing',
    description:
      'The same plan as `POST /settings/identity-format/apply` makes, of the users as they are: how many users would be renamed and merged, the first 200 renames and merges, and the merges that would give a user more than 100 custom fields (while there is one, the apply is refused and changes nothing). `format` plans for a format before it is set; the account’s format without it. Not journaled.',
    envelope: 'model',
    query: [{ name: 'format', required: false, enum: ['AsIs', 'Login'], description: 'the format to plan for (any case)' }],
    ok: { schema: modelEnvelope(ref(IdentityFormatDryRunDto)), example: ok(DRY_RUN_EXAMPLE) },
    errors: { 400: 'format must be "AsIs" or "Login".' },
  },
} satisfies Record<string, RouteDoc>;
