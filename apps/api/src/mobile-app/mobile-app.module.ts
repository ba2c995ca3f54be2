import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { AuthenticatorAppController } from './authenticator-app.controller';
import { MobileAppController } from './mobile-app.controller';
import { MobileAppEnrollment } from './mobile-app-enrollment';
import { MobileAppService } from './mobile-app.service';
import { MobileAppTransport } from './mobile-app.transport';
import { MobileAppSubscriptionRules } from './push-subscription';
import { WebPushSender } from './web-push.sender';

/**
 * The service's own authenticator app: its device protocol (enrollment, signed requests and
 * decisions), its approval transport (Web Push) and the app itself, served at `$ACCESS_URL/app/`. Needs no configuration: Web Push goes to
 * whatever push service each device's browser subscribed with.
 */
@Module({
  imports: [ApprovalsModule],
  controllers: [MobileAppController, AuthenticatorAppController],
  providers: [MobileAppService, MobileAppEnrollment, MobileAppSubscriptionRules, WebPushSender, MobileAppTransport],
  exports: [MobileAppService, MobileAppEnrollment],
})
export class MobileAppModule {}
