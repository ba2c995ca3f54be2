import { Global, Module } from '@nestjs/common';
import { AdminsModule } from '../admins/admins.module';
import { ConsoleAccountApiController } from './console-account-api.controller';
import { ConsoleAccountApiService } from './console-account-api.service';
import { ConsoleSessionAuthenticator } from './console-session.authenticator';
import { ConsoleSessions } from './console-sessions';
import { ConsoleSignInController } from './console-sign-in.controller';
import { ConsolePageController } from './console-page.controller';
import { ConsoleSignInService } from './console-sign-in.service';

/**
 * The administrators' console: its sign-in and sessions. Global because the account API's guard
 * (auth/auth.guards.ts) in every feature module accepts its sessions; left out entirely when
 * CONSOLE=false, and the guard then knows no sessions.
 */
@Global()
@Module({
  imports: [AdminsModule],
  controllers: [ConsoleSignInController, ConsolePageController, ConsoleAccountApiController],
  providers: [ConsoleSessions, ConsoleSessionAuthenticator, ConsoleSignInService, ConsoleAccountApiService],
  exports: [ConsoleSessionAuthenticator, ConsoleSessions],
})
export class ConsoleModule {}
