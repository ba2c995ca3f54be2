import {
  InputFields,
  IpListInput,
  parseIpListAction,
  parseRecordId,
  RecordId,
  validateIpListName,
  validateIpListRanges,
  validateIpListResources,
} from '@twofold/domain';
import { PathParameters } from '../http/parsed-input';

/**
 * The body of `POST /ip-lists` and `PUT /ip-lists/{id}`: `{name, action, ranges, resources}`, keys in
 * any case, judged in that order by libs/domain's rules. Every refusal names its culprit: the field,
 * and for a range its position and text.
 */
export function parseIpListBody(body: unknown): IpListInput {
  const fields = InputFields.ofBody(body);
  const name = validateIpListName(fields.get('name'));
  const action = parseIpListAction(fields.get('action'));
  const ranges = validateIpListRanges(fields.get('ranges'));
  const resources = validateIpListResources(fields.get('resources') ?? []);
  return { name, ranges, action, resources };
}

/** `/ip-lists/{id}`: the path's list. */
export function parseIpListPath(path: PathParameters): RecordId {
  return parseRecordId(path['id'], 'IP list');
}
