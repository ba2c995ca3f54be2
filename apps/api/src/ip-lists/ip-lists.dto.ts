import { IpListAction } from '@twofold/domain';
import { IpListRow } from '@twofold/persistence';

/** An IP list as the API shows it (issue 14); `resources` empty: every resource of the account. */
export interface IpListDto {
  id: string;
  name: string;
  ranges: string[];
  action: IpListAction;
  resources: string[];
}

export function toIpListDto(row: IpListRow): IpListDto {
  return { id: row.id, name: row.name, ranges: row.ranges, action: row.action, resources: row.resources };
}
