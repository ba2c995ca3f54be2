import { GroupEntity } from '@twofold/persistence';

export interface GroupDto {
  id: string;
  name: string;
  system: boolean;
}

export function toGroupDto(group: GroupEntity): GroupDto {
  return { id: group.id, name: group.name, system: group.system };
}
