import { IsString } from 'class-validator';
import { GroupEntity } from '@twofold/persistence';

export class GroupNameRequest {
  @IsString()
  name!: string;
}

export interface GroupDto {
  id: string;
  name: string;
  system: boolean;
}

export function toGroupDto(group: GroupEntity): GroupDto {
  return { id: group.id, name: group.name, system: group.system };
}
