import { DynamicModule, Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { AdminsModule } from '../admins/admins.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { AuthenticatorsModule } from '../authenticators/authenticators.module';
import { AuthModule } from '../auth/auth.module';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { GroupsModule } from '../groups/groups.module';
import { IpListsModule } from '../ip-lists/ip-lists.module';
import { JournalModule } from '../journal/journal.module';
import { HealthController } from '../health/health.controller';
import { MetricsController } from '../metrics/metrics.controller';
import { FaviconController } from '../pages/favicon.controller';
import { PingController } from '../ping/ping.controller';
import { ResourcesModule } from '../resources/resources.module';
import { SelfServiceModule } from '../self-service/self-service.module';
import { SettingsModule } from '../settings/settings.module';
import { TelegramModule } from '../telegram/telegram.module';
import { MobileAppModule } from '../mobile-app/mobile-app.module';
import { ConsoleModule } from '../console/console.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { AppRuntime, InfrastructureModule } from './infrastructure.module';

@Module({})
export class AppModule {
  static forRuntime(runtime: AppRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRuntime(runtime),
        AuthModule,
        EnrollmentModule,
        JournalModule,
        AdminsModule,
        GroupsModule,
        ResourcesModule,
        IpListsModule,
        UsersModule,
        SettingsModule,
        AuthenticatorsModule,
        TokensModule,
        AccessModule,
        // the self-service portals' family, after the access page's `/access/:id`
        SelfServiceModule,
        // out-of-band approval and its first transport; the access decision asks through its approval factor
        ApprovalsModule,
        TelegramModule,
        MobileAppModule,
        // the administrators' console: its sign-in, and its sessions on the account API
        ...(runtime.config.console === false ? [] : [ConsoleModule]),
      ],
      controllers: [
        PingController,
        FaviconController,
        HealthController,
        ...(runtime.config.metrics?.enabled === false ? [] : [MetricsController]),
      ],
    };
  }
}
