import { isGiven, parseRecordId, RecordId, TokenFormatName, validateFrameOrigins, validateTokenFormat } from '@twofold/domain';
import { IsString, Matches, MaxLength } from 'class-validator';
import { FollowsDomainRule } from '../http/domain-rule.validator';
import { parseDto } from '../http/dto-validation.pipe';
import { PathParameters } from '../http/parsed-input';

export const RESOURCE_NAME_MAX_LENGTH = 200;

/**
 * The body of `POST /resources` and `PUT /resources/{id}`: `name` (required, as before), and optional
 * `tokenFormat` and `frameOrigins`, keys in any case. The optional two are
 * judged by libs/domain's rules, with their messages; resourceCommandOf takes their normalized values.
 */
export class ResourceRequest {
  @IsString()
  @Matches(/\S/, { message: 'name must not be empty.' })
  @MaxLength(RESOURCE_NAME_MAX_LENGTH)
  name!: string;

  @FollowsDomainRule(validateTokenFormat)
  tokenFormat?: string | null;

  @FollowsDomainRule(validateFrameOrigins)
  frameOrigins?: string[] | null;
}

/** What a create or update sets: a field left out (or null) is not changed (on create: its default). */
export interface ResourceCommand {
  name: string;
  tokenFormat?: TokenFormatName;
  frameOrigins?: string[];
}

export function resourceCommandOf(body: ResourceRequest): ResourceCommand {
  return {
    name: body.name.trim(),
    ...(isGiven(body.tokenFormat) && { tokenFormat: validateTokenFormat(body.tokenFormat) }),
    ...(isGiven(body.frameOrigins) && { frameOrigins: validateFrameOrigins(body.frameOrigins) }),
  };
}

export function parseResourceBody(body: unknown): ResourceCommand {
  return resourceCommandOf(parseDto(ResourceRequest)(body));
}

/** `/resources/{id}`: the path's resource. */
export function parseResourcePath(path: PathParameters): RecordId {
  return parseRecordId(path['id'], 'Resource');
}
