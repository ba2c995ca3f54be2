import { ApiProperty } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';

export class DirectorySync {
  @ApiProperty({ description: 'directory synchronization; while on, custom fields of Directory users cannot be changed' })
  enabled!: boolean;
}

export class Branding {
  @ApiProperty({
    description:
      "the customer's name on the access and enrollment pages, in mails and as the authenticator-app issuer; the account's name unless set",
    maxLength: 64,
    example: 'Acme Bank',
  })
  displayName!: string;
  @ApiProperty({ description: "true while no display name is set and the account's name is shown" })
  isDefault!: boolean;
}

export class SetBranding {
  @ApiProperty({
    description: "at most 64 characters, trimmed, not empty, no ':' and no control characters; null: the account's name again",
    type: String,
    nullable: true,
    maxLength: 64,
    example: 'Acme Bank',
  })
  displayName!: string | null;
}

export const SETTINGS_DOCS = {
  directorySync: {
    summary: 'Read the directory synchronization switch',
    envelope: 'model',
    ok: { schema: modelEnvelope(ref(DirectorySync)), example: { model: { enabled: false }, success: true, message: null } },
  },
  setDirectorySync: {
    summary: 'Switch directory synchronization',
    envelope: 'model',
    body: { type: DirectorySync, example: { enabled: true } },
    ok: { schema: modelEnvelope(ref(DirectorySync)), example: { model: { enabled: true }, success: true, message: null } },
    errors: { 400: 'enabled must be true or false.' },
  },
  branding: {
    summary: "Read the account's display name",
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(Branding)),
      example: { model: { displayName: 'Acme Bank', isDefault: false }, success: true, message: null },
    },
  },
  setBranding: {
    summary: "Set the account's display name (journal: Accounts ChangeDisplayName)",
    description:
      'The name users see on the access and enrollment pages, in enrollment mails and as the issuer of their authenticator-app entry (`otpauth://totp/<displayName>:<identity>?issuer=<displayName>`). Apps keep the issuer an entry was enrolled with: a change shows on entries enrolled afterwards.',
    envelope: 'model',
    body: { type: SetBranding, example: { displayName: 'Acme Bank' } },
    ok: {
      schema: modelEnvelope(ref(Branding)),
      example: { model: { displayName: 'Acme Bank', isDefault: false }, success: true, message: null },
    },
    errors: { 400: "displayName must not contain ':'." },
  },
} satisfies Record<string, RouteDoc>;
