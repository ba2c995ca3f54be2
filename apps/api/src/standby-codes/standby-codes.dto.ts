import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'BypassCodes' })
export class BypassCodesDto {
  @ApiProperty({ type: [String], description: 'shown once: only their salted hashes are stored', example: ['7K2M-9QXD-4RPA'] })
  codes!: string[];
  @ApiProperty({ type: 'integer', description: 'sign-ins each code is good for' }) uses!: number;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}

@ApiSchema({ name: 'RecoveryCodes' })
export class RecoveryCodesDto {
  @ApiProperty({ type: [String], description: 'ten single-use codes, shown once; the earlier ones no longer work' })
  codes!: string[];
}
