import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Where an account's codes of one method go, as the settings API shows it: never a password, token or header value. */
@ApiSchema({ name: 'PhoneGateway' })
export class PhoneGatewayDto {
  @ApiProperty({ enum: ['sms', 'call'] })
  method!: 'sms' | 'call';
  @ApiProperty({
    enum: ['account', 'service', 'outbox'],
    description: "whose gateway sends: the account's own, the service-wide one (SMS_GATEWAY/CALL_GATEWAY), or none (the service's outbox)",
  })
  source!: 'account' | 'service' | 'outbox';
  @ApiProperty({
    description: "the gateway's scheme, host and path (no query: it may hold a key); null for the outbox",
    type: String,
    nullable: true,
  })
  url!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['GET', 'POST', 'PUT'] })
  httpMethod!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['json', 'form', 'none'] })
  bodyFormat!: string | null;
  @ApiProperty({ description: 'Basic auth is set (the password is never shown)' })
  basicAuth!: boolean;
  @ApiProperty({ description: 'the names of the headers sent (their values are never shown)', type: [String] })
  headers!: string[];
}

@ApiSchema({ name: 'PhoneDestinations' })
export class PhoneDestinationsDto {
  @ApiProperty({
    description: 'E.164 prefixes (`+7`, `+4420`) codes may be sent to; empty: any destination',
    type: [String],
    example: ['+7', '+375'],
  })
  allowedPrefixes!: string[];
}
