import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IDENTITY_FORMATS, IdentityFormat } from '@twofold/domain';

/*
 * The answers of the settings API, each declared once: the class is the TypeScript type the service
 * returns and, through its @ApiProperty decorators, the OpenAPI schema (named by @ApiSchema). The
 * directory switch and the identity format are also the bodies that set them.
 */

@ApiSchema({ name: 'DirectorySync' })
export class DirectorySyncDto {
  @ApiProperty({ description: 'directory synchronization; while on, custom fields of Directory users cannot be changed' })
  enabled!: boolean;
}

/** The customer's name as pages, mails and authenticator apps show it, and whether it is the account's name by default. */
@ApiSchema({ name: 'Branding' })
export class BrandingDto {
  @ApiProperty({
    description:
      "the customer's name on the access and enrollment pages, in mails and as the authenticator-app issuer; the account's name unless set",
    maxLength: 64,
    example: 'Acme Bank',
  })
  displayName!: string;
  /** true when no display name is set and the account's name is shown */
  @ApiProperty({ description: "true while no display name is set and the account's name is shown" })
  isDefault!: boolean;
}

@ApiSchema({ name: 'IdentityFormatModel' })
export class IdentityFormatDto {
  @ApiProperty({
    enum: IDENTITY_FORMATS,
    description:
      "how identities received are written: AsIs as sent; Login drops everything up to the last '\\' and from the first '@', and lower-cases (`CORP\\Jane`, `jane@corp.example` → `jane`)",
    example: 'Login',
  })
  format!: IdentityFormat;
}

@ApiSchema({ name: 'IdentityRename' })
export class IdentityRenameDto {
  @ApiProperty({ example: 'CORP\\Jane' }) from!: string;
  @ApiProperty({ example: 'jane' }) to!: string;
}

@ApiSchema({ name: 'IdentityMerge' })
export class IdentityMergeDto {
  @ApiProperty({ description: 'the surviving (oldest) user, by its identity after the apply; it keeps its id', example: 'jane' })
  into!: string;
  @ApiProperty({ type: [String], description: 'identities of the users merged into it and removed', example: ['jane@corp.example'] })
  from!: string[];
}

/** What `POST /settings/identity-format/apply` did: identities as they were and as they are. */
@ApiSchema({ name: 'IdentityFormatApply' })
export class IdentityFormatApplyDto {
  @ApiProperty({ type: [IdentityRenameDto] }) renamed!: IdentityRenameDto[];
  @ApiProperty({ type: [IdentityMergeDto] }) merged!: IdentityMergeDto[];
}
