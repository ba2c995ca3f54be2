import { IsString, Matches, MaxLength } from 'class-validator';
import { FollowsDomainRule } from '../http/domain-rule.validator';
import { isGiven, TokenFormatName, validateFrameOrigins, validateTokenFormat } from '@twofold/domain';
import { ResourceEntity } from '@twofold/persistence';

export const RESOURCE_NAME_MAX_LENGTH = 200;

/**
 * The body of `POST /resources` and `PUT /resources/{id}`: `name` (required, as before), and optional
 * `tokenFormat` (CONTRACT §8.9) and `frameOrigins` (§8.8), keys in any case. The optional two are
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

export interface ResourceDto {
  id: string;
  name: string;
  apiKey: string;
  tokenFormat: TokenFormatName;
  frameOrigins: string[];
}

/** Only at creation and through the journaled display endpoint. */
export interface ResourceWithSecretDto extends ResourceDto {
  apiSecret: string;
}

export function toResourceDto(resource: ResourceEntity): ResourceDto {
  return {
    id: resource.id,
    name: resource.name,
    apiKey: resource.apiKey,
    tokenFormat: resource.tokenFormat,
    frameOrigins: resource.frameOrigins,
  };
}
