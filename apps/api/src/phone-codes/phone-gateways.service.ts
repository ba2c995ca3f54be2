import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, describeHttpGateway, HttpGatewaySettings, isSmppGateway, PhoneCodeMethod } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { PhoneCodesRepository } from './phone-codes.repository';
import { PhoneDestinationsDto, PhoneGatewayDto } from './phone-gateways.dto';
import { PhoneGateways } from './phone-gateways';

/** The account's SMS and call gateways and its allow-list of destinations, as the settings API reads and sets them. */
@Injectable()
export class PhoneGatewaysService {
  constructor(
    private readonly gateways: PhoneGateways,
    private readonly rows: PhoneCodesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async gateway(accountId: AccountId, method: PhoneCodeMethod): Promise<PhoneGatewayDto> {
    const own = await this.gateways.accountGateway(accountId, method);
    if (own) return gatewayDto(method, 'account', own);
    const service = this.config.phoneGateways?.[method];
    // an SMS centre: where it is, never its system id or password
    if (service && isSmppGateway(service))
      return {
        method,
        source: 'service',
        url: `${service.tls ? 'ssmpp' : 'smpp'}://${service.host}:${service.port}`,
        httpMethod: null,
        bodyFormat: null,
        basicAuth: false,
        headers: [],
      };
    if (service) return gatewayDto(method, 'service', service);
    return { method, source: 'outbox', url: null, httpMethod: null, bodyFormat: null, basicAuth: false, headers: [] };
  }

  /** Sets the account's own gateway; the journal names where it sends, never its secrets. */
  async setGateway(accountId: AccountId, method: PhoneCodeMethod, settings: HttpGatewaySettings): Promise<PhoneGatewayDto> {
    await this.gateways.setAccountGateway(accountId, method, settings, this.clock.now());
    journalDetails.add({ Method: method, Gateway: describeHttpGateway(settings).url });
    return this.gateway(accountId, method);
  }

  /** Removes the account's own gateway: its codes go through the service's again. */
  async removeGateway(accountId: AccountId, method: PhoneCodeMethod): Promise<PhoneGatewayDto> {
    await this.gateways.setAccountGateway(accountId, method, null, this.clock.now());
    journalDetails.add({ Method: method });
    return this.gateway(accountId, method);
  }

  async destinations(accountId: AccountId): Promise<PhoneDestinationsDto> {
    return { allowedPrefixes: await this.rows.allowedPrefixes(accountId) };
  }

  async setDestinations(accountId: AccountId, prefixes: string[]): Promise<PhoneDestinationsDto> {
    await this.rows.setAllowedPrefixes(accountId, prefixes, this.clock.now());
    journalDetails.add({ Destinations: prefixes.join(', ') });
    return this.destinations(accountId);
  }
}

function gatewayDto(method: PhoneCodeMethod, source: 'account' | 'service', settings: HttpGatewaySettings): PhoneGatewayDto {
  const shown = describeHttpGateway(settings);
  return {
    method,
    source,
    url: shown.url,
    httpMethod: shown.method,
    bodyFormat: shown.bodyFormat,
    basicAuth: shown.basicAuth,
    headers: shown.headers,
  };
}
