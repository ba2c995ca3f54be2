import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { GroupEntity } from '@twofold/persistence';

/*
 * The answers of the group API, each declared once: the class is the TypeScript type the service
 * returns and, through its @ApiProperty decorators, the OpenAPI schema (named by @ApiSchema).
 */

@ApiSchema({ name: 'Group' })
export class GroupDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'the system group AllUsers: neither renamed nor deleted' }) system!: boolean;
}

export function toGroupDto(group: GroupEntity): GroupDto {
  return { id: group.id, name: group.name, system: group.system };
}
