import { Module } from '@nestjs/common';
import { StandbyCodesModule } from '../standby-codes/standby-codes.module';
import { AccessModule } from '../access/access.module';
import { AccessTokenBearerGuard } from './access-token-bearer.guard';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { TelegramModule } from '../telegram/telegram.module';
import { MobileAppModule } from '../mobile-app/mobile-app.module';
import { AccessBypassController } from './access-bypass.controller';
import { IdpController } from './idp/idp.controller';
import { IdpLoginService } from './idp/idp-login.service';
import { MyFactorsLinks } from './my-factors/my-factors-links';
import { MyFactorsPageController } from './my-factors/my-factors-page.controller';
import { MyFactorsPageService } from './my-factors/my-factors-page.service';
import { SelfServiceFactorsService } from './self-service-factors.service';
import { SelfServiceLegacyController } from './self-service-legacy.controller';
import { SelfServicePortalSettingsController } from './self-service-portal-settings.controller';
import { SelfServiceProfileController } from './self-service-profile.controller';
import { SelfServiceProfileService } from './self-service-profile.service';
import { SelfServiceRecoveryController } from './self-service-recovery.controller';
import { SelfServiceRecoveryService } from './self-service-recovery.service';
import { SelfServiceSettingsController } from './self-service-settings.controller';
import { SelfServiceSettingsService } from './self-service-settings.service';

/**
 * The self-service portals' family (`/self-service/…`, `access/bypass/…`), the account settings that
 * feed it, and the "my factors" page the portals open.
 */
@Module({
  imports: [EnrollmentModule, AccessModule, TelegramModule, MobileAppModule, StandbyCodesModule],
  controllers: [
    SelfServiceProfileController,
    SelfServicePortalSettingsController,
    SelfServiceRecoveryController,
    SelfServiceLegacyController,
    SelfServiceSettingsController,
    AccessBypassController,
    MyFactorsPageController,
    IdpController,
  ],
  providers: [
    AccessTokenBearerGuard,
    SelfServiceProfileService,
    SelfServiceFactorsService,
    SelfServiceRecoveryService,
    SelfServiceSettingsService,
    MyFactorsLinks,
    MyFactorsPageService,
    IdpLoginService,
  ],
})
export class SelfServiceModule {}
