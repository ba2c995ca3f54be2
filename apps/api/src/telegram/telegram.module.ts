import { Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/injection-tokens';
import { ApprovalsModule } from '../approvals/approvals.module';
import { sessionConnectionConfig } from '../approvals/listen-connection';
import { AppConfig } from '../config/app-config';
import { TelegramBindingService } from './telegram-binding.service';
import { TelegramEnrollment } from './telegram-enrollment';
import { TelegramPoller } from './telegram-poller';
import { TelegramRuntime } from './telegram-runtime';
import { TelegramUpdates } from './telegram-updates';
import { TelegramWebhookController } from './telegram-webhook.controller';
import { TelegramWebhookGuard } from './telegram-webhook.guard';
import { TelegramTransport } from './telegram.transport';

/** Starts the long poll with the application when the bot polls (TELEGRAM_UPDATES=polling), and stops it on shutdown. */
@Injectable()
export class TelegramPolling implements OnApplicationBootstrap, OnApplicationShutdown {
  private poller: TelegramPoller | null = null;

  /** This instance holds the polling lock and asks getUpdates. */
  get polling(): boolean {
    return this.poller?.polling ?? false;
  }

  constructor(
    private readonly runtime: TelegramRuntime,
    private readonly updates: TelegramUpdates,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.runtime.api || this.runtime.settings?.updates !== 'polling') return;
    this.poller = new TelegramPoller({
      api: this.runtime.api,
      lockConnection: () => sessionConnectionConfig(this.dataSource, this.config, 'twofold-telegram-poller'),
      handle: (update) => this.updates.handle(update),
    });
    this.poller.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poller?.close();
  }
}

/**
 * The Telegram bot (TELEGRAM_BOT_TOKEN): the approval transport, the updates (webhook or long poll)
 * and chat binding. Without a token every piece is present and idle: no transport is registered,
 * the webhook answers 404, nothing polls.
 */
@Module({
  imports: [ApprovalsModule],
  controllers: [TelegramWebhookController],
  providers: [
    {
      provide: TelegramRuntime,
      useFactory: (config: AppConfig) => new TelegramRuntime(config.telegram, config.encryptionKey),
      inject: [APP_CONFIG],
    },
    TelegramTransport,
    TelegramBindingService,
    TelegramEnrollment,
    TelegramUpdates,
    TelegramWebhookGuard,
    TelegramPolling,
  ],
  exports: [TelegramRuntime, TelegramBindingService, TelegramUpdates, TelegramEnrollment],
})
export class TelegramModule {}
