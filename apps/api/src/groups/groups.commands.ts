import { parseRecordId, RecordId } from '@twofold/domain';
import { IsString } from 'class-validator';
import { parseDto } from '../http/dto-validation.pipe';
import { PathParameters } from '../http/parsed-input';

/**
 * What each call of the group API asks for, parsed at the edge. The name's own rules (length, the
 * system group's name) are the service's, which journals the name asked for before judging it.
 */

/** The body of POST /groups and PUT /groups/{id}: `name`, the key in any case. */
export class GroupNameRequest {
  @IsString()
  name!: string;
}

export function parseGroupNameBody(body: unknown): string {
  return parseDto(GroupNameRequest)(body).name;
}

/** `/groups/{id}`: the path's group. */
export function parseGroupPath(path: PathParameters): RecordId {
  return parseRecordId(path['id'], 'Group');
}
