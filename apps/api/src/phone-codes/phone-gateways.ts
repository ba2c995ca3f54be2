import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { AccountId, HttpGatewaySettings, isSmppGateway, parseHttpGatewaySettings, PhoneCodeMethod } from '@twofold/domain';
import { SmppGateway } from './smpp-gateway';
import { SecretCipher } from '@twofold/persistence';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { reachesOnlyPublicAddresses } from './gateway-destination';
import { HttpTemplateGateway, OutboxPhoneGateway, PhoneGateway } from './phone-gateway';
import { PhoneCodesRepository } from './phone-codes.repository';

/**
 * The gateway a code of an account goes through: the account's own (`PUT /settings/sms-gateway`,
 * `/settings/call-gateway`), else the service-wide one (SMS_GATEWAY, CALL_GATEWAY), else the outbox.
 */
@Injectable()
export class PhoneGateways {
  private readonly outbox: OutboxPhoneGateway;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rows: PhoneCodesRepository,
    private readonly cipher: SecretCipher,
  ) {
    this.outbox = new OutboxPhoneGateway(join(config.dataDir, 'outbox'));
  }

  async gatewayFor(accountId: AccountId, method: PhoneCodeMethod): Promise<PhoneGateway> {
    const own = await this.accountGateway(accountId, method);
    if (own) return new HttpTemplateGateway(own, this.config.phoneGatewaysAllowPrivate ? undefined : reachesOnlyPublicAddresses);
    const service = this.config.phoneGateways?.[method];
    if (!service) return this.outbox;
    return isSmppGateway(service) ? new SmppGateway(service) : new HttpTemplateGateway(service);
  }

  /** The account's own gateway of a method, decrypted; null: none. */
  async accountGateway(accountId: AccountId, method: PhoneCodeMethod): Promise<HttpGatewaySettings | null> {
    const stored = await this.rows.gatewayOf(accountId, method);
    if (!stored) return null;
    return parseHttpGatewaySettings(JSON.parse(this.cipher.decryptText('phone.gateway', stored)));
  }

  /** Stores (encrypted) or removes the account's own gateway of a method. */
  async setAccountGateway(accountId: AccountId, method: PhoneCodeMethod, settings: HttpGatewaySettings | null, now: Date): Promise<void> {
    const sealed = settings ? this.cipher.encrypt('phone.gateway', JSON.stringify(settings)) : null;
    await this.rows.setGateway(accountId, method, sealed, now);
  }
}
