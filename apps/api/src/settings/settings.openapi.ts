import { ApiProperty } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';
import { ok } from '../http/envelope';
import { BrandingDto, DirectorySyncDto } from './settings.dto';

/* The request bodies as clients write them, and each route's examples, typed by their answer's class (settings.dto.ts). */

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
    ok: { schema: modelEnvelope(ref(DirectorySyncDto)), example: ok<DirectorySyncDto>({ enabled: false }) },
  },
  setDirectorySync: {
    summary: 'Switch directory synchronization',
    envelope: 'model',
    body: { type: DirectorySyncDto, example: { enabled: true } },
    ok: { schema: modelEnvelope(ref(DirectorySyncDto)), example: ok<DirectorySyncDto>({ enabled: true }) },
    errors: { 400: 'enabled must be true or false.' },
  },
  branding: {
    summary: "Read the account's display name",
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(BrandingDto)),
      example: ok<BrandingDto>({ displayName: 'Acme Bank', isDefault: false }),
    },
  },
  setBranding: {
    summary: "Set the account's display name (journal: Accounts ChangeDisplayName)",
    description:
      'The name users see on the access and enrollment pages, in enrollment mails and as the issuer of their authenticator-app entry (`otpauth://totp/<displayName>:<identity>?issuer=<displayName>`). Apps keep the issuer an entry was enrolled with: a change shows on entries enrolled afterwards.',
    envelope: 'model',
    body: { type: SetBranding, example: { displayName: 'Acme Bank' } },
    ok: {
      schema: modelEnvelope(ref(BrandingDto)),
      example: ok<BrandingDto>({ displayName: 'Acme Bank', isDefault: false }),
    },
    errors: { 400: "displayName must not contain ':'." },
  },
} satisfies Record<string, RouteDoc>;
