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

@ApiSchema({ name: 'IdentityFormatConflict' })
export class IdentityFormatConflictDto {
  @ApiProperty({ description: 'the surviving user, by its identity after the apply', example: 'jane' })
  into!: string;
  @ApiProperty({ description: 'custom fields the merged user would have (more than a user may have)', example: 101 })
  customFields!: number;
}

/** What `POST /settings/identity-format/apply` would do now; the lists are cut at 200, the counts are whole. */
@ApiSchema({ name: 'IdentityFormatDryRun' })
export class IdentityFormatDryRunDto {
  @ApiProperty({ enum: IDENTITY_FORMATS, description: 'the format planned for: the one asked for, else the account’s', example: 'Login' })
  format!: IdentityFormat;
  @ApiProperty({ description: 'users of the account', example: 1200 })
  users!: number;
  @ApiProperty({ description: 'users that would be renamed (survivors whose identity changes)', example: 1 })
  renamedCount!: number;
  @ApiProperty({ description: 'users that would be merged into another and removed', example: 1 })
  mergedCount!: number;
  @ApiProperty({ type: [IdentityRenameDto] }) renamed!: IdentityRenameDto[];
  @ApiProperty({ type: [IdentityMergeDto] }) merged!: IdentityMergeDto[];
  @ApiProperty({
    type: [IdentityFormatConflictDto],
    description: 'merges that would give a user too many custom fields: while there is one, the apply is refused and changes nothing',
  })
  conflicts!: IdentityFormatConflictDto[];
}

/** Where an apply started with `progressId` stands. */
@ApiSchema({ name: 'IdentityFormatApplyProgress' })
export class IdentityFormatApplyProgressDto {
  @ApiProperty({ description: 'the id its caller chose', example: '0b7e4c1a-5d2f-4e8a-9c3b-1f2e3d4c5b6a' })
  id!: string;
  @ApiProperty({
    enum: ['planning', 'writing', 'done', 'failed'],
    description:
      'planning: users read and locked; writing: `done` of `total` user rows written; done: committed; failed: rolled back, nothing changed',
    example: 'writing',
  })
  state!: 'planning' | 'writing' | 'done' | 'failed';
  @ApiProperty({ example: 3000 }) done!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null while planning', example: 12000 })
  total!: number | null;
}
