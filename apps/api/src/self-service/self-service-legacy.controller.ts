import { Controller, Delete, Get, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { InputFields, ValidationFailed } from '@twofold/domain';
import { AccessTokenBearerGuard } from './access-token-bearer.guard';
import { AccessTokenHolder, CurrentTokenHolder } from '../auth/access-token-holder';
import { ModelEnvelope } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { IgnoredBody, ModelEnvelopeErrors } from '../http/route-rules';
import { Transactional } from '../http/transactional';
import { ApiAccessTokenAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { PORTAL_FACTOR_KINDS, PortalFactorKind, PortalFactorLists } from './self-service-factors';
import { SelfServiceFactorsService } from './self-service-factors.service';
import { SELF_SERVICE_DOCS } from './self-service.openapi';

function parseFactorKind(raw: string | undefined): PortalFactorKind {
  const kind = PORTAL_FACTOR_KINDS.find((known) => known === raw?.toLowerCase());
  if (!kind) throw new ValidationFailed(`The kind must be one of: ${PORTAL_FACTOR_KINDS.join(', ')}.`);
  return kind;
}

/**
 * What older portal releases call to manage the user's factors themselves, with the user's Bearer
 * token. Later releases open the "my factors" page instead (`create-enrollment-request`).
 */
@ModelEnvelopeErrors()
@Controller({ path: 'self-service', version: VERSION_NEUTRAL })
@UseGuards(AccessTokenBearerGuard)
@ApiFeature('Self-service portals')
@ApiAccessTokenAuth()
export class SelfServiceLegacyController {
  constructor(private readonly factors: SelfServiceFactorsService) {}

  @ApiRoute(SELF_SERVICE_DOCS.newTotp)
  @Get('totp/new')
  newTotp(@CurrentTokenHolder() holder: AccessTokenHolder): Promise<ModelEnvelope<{ key: string; link: string } | null>> {
    return this.factors.newTotp(holder);
  }

  @ApiRoute(SELF_SERVICE_DOCS.addTotp)
  @Post('totp')
  @HttpCode(200)
  @Transactional()
  addTotp(
    @CurrentTokenHolder() holder: AccessTokenHolder,
    @Input('body', (body) => InputFields.ofBody(body)) fields: InputFields,
  ): Promise<ModelEnvelope<PortalFactorLists | null>> {
    return this.factors.addTotp(holder, fields.get('key'), fields.get('otp'));
  }

  /** The portal sends this with an empty form body (a form content type, no fields): the body is not read. */
  @ApiRoute(SELF_SERVICE_DOCS.removeFactor)
  @Delete(':kind/:id')
  @IgnoredBody()
  @Transactional()
  remove(
    @CurrentTokenHolder() holder: AccessTokenHolder,
    @Input('path', (path) => ({ kind: parseFactorKind(path['kind']), id: String(path['id'] ?? '') }))
    path: { kind: PortalFactorKind; id: string },
  ): Promise<ModelEnvelope<PortalFactorLists | null>> {
    return this.factors.remove(holder, path.kind, path.id);
  }
}
