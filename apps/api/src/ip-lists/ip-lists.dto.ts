import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IP_LIST_ACTIONS, IpListAction } from '@twofold/domain';
import { IpListRow } from '@twofold/persistence';

/**
 * An IP list as the API shows it; `resources` empty: every resource of the account. Declared once: the
 * TypeScript type the service returns and, through its @ApiProperty decorators, the OpenAPI schema.
 */
@ApiSchema({ name: 'IpList' })
export class IpListDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String], description: 'IPv4 and IPv6 addresses and CIDR networks, as written' }) ranges!: string[];
  @ApiProperty({ enum: IP_LIST_ACTIONS, description: 'Bypass: granted without a code; Deny: refused. Deny wins.' }) action!: IpListAction;
  @ApiProperty({ type: [String], description: 'resource ids the list applies to; empty: every resource of the account' })
  resources!: string[];
}

export function toIpListDto(row: IpListRow): IpListDto {
  return { id: row.id, name: row.name, ranges: row.ranges, action: row.action, resources: row.resources };
}
