import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AccessModule } from '../access/access.module';
import { AdminsModule } from '../admins/admins.module';
import { AuthenticatorsModule } from '../authenticators/authenticators.module';
import { AuthModule } from '../auth/auth.module';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { GroupsModule } from '../groups/groups.module';
import { JournalModule } from '../journal/journal.module';
import { PingController } from '../ping/ping.controller';
import { ResourcesModule } from '../resources/resources.module';
import { SettingsModule } from '../settings/settings.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { TracedRequest } from '../http/trace-id';
import { createLogger, loggedUrl } from './logger';
import { AppRuntime, InfrastructureModule } from './infrastructure.module';

@Module({})
export class AppModule {
  static forRuntime(runtime: AppRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRuntime(runtime),
        LoggerModule.forRoot({
          pinoHttp: {
            logger: createLogger(runtime.config.logLevel, runtime.logDestination),
            genReqId: (req) => (req as unknown as TracedRequest).traceId,
            // one line per request: method, path, status, duration, trace id; no bodies, no headers
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({ traceId: req.id, method: req.method, url: loggedUrl(req.url) }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
        AuthModule,
        EnrollmentModule,
        JournalModule,
        AdminsModule,
        GroupsModule,
        ResourcesModule,
        UsersModule,
        SettingsModule,
        AuthenticatorsModule,
        TokensModule,
        AccessModule,
      ],
      controllers: [PingController],
    };
  }
}
