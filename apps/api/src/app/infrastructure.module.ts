import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '@twofold/domain';
import { JournalInterceptor, JournalWriter } from '@twofold/journal';
import {
  AccessRequestRatesRepository,
  AccessRequestsRepository,
  AccountsRepository,
  ApiKeysRepository,
  ApprovalsRepository,
  UserMergesRepository,
  AdministratorsRepository,
  AuthFailuresRepository,
  AuthenticatorsRepository,
  Db,
  EnrollmentTokensRepository,
  GroupsRepository,
  IpListsRepository,
  JournalRepository,
  RefreshedTokensRepository,
  ResourcesRepository,
  SecretCipher,
  TelegramBindingsRepository,
  MobileAppDevicesRepository,
  SelfServiceRepository,
  TokenSigningKeysRepository,
  UsersRepository,
  WrongCodeStreaksRepository,
  StandbyCodesRepository,
  ConsoleRepository,
} from '@twofold/persistence';
import { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { AuthThrottle } from '../auth/auth-throttle';
import { ApiCredentialsVerifier } from '../auth/api-credentials.verifier';
import { CredentialsChangeListener } from '../auth/credentials-change.listener';
import { VerifiedCredentialsCache } from '../auth/verified-credentials.cache';
import { ClientAddressResolver } from '../http/client-address';
import { APP_CONFIG, CLOCK, SLEEP } from '../config/injection-tokens';
import { REAL_SLEEP, Sleep } from '../config/sleep';
import { createMailer, MAILER } from '../mail/mailer';
import { RouteRulesTable } from '../http/route-rules';
import { DatabaseHealth } from '../http/database-health';
import { AppMetrics } from '../metrics/app-metrics';

export interface AppRuntime {
  config: AppConfig;
  dataSource: DataSource;
  clock: Clock;
  /** where the request log goes; absent: the process' stdout */
  logDestination?: DestinationStream;
  /** how retries wait; absent: real timers (tests advance their clock instead) */
  sleep?: Sleep;
}

/** Every repository of the API, registered here and nowhere else. */
const REPOSITORIES = [
  AuthFailuresRepository,
  AccessRequestRatesRepository,
  AccessRequestsRepository,
  AccountsRepository,
  AdministratorsRepository,
  GroupsRepository,
  IpListsRepository,
  ResourcesRepository,
  JournalRepository,
  EnrollmentTokensRepository,
  UsersRepository,
  AuthenticatorsRepository,
  TokenSigningKeysRepository,
  WrongCodeStreaksRepository,
  UserMergesRepository,
  RefreshedTokensRepository,
  ApiKeysRepository,
  ApprovalsRepository,
  TelegramBindingsRepository,
  MobileAppDevicesRepository,
  SelfServiceRepository,
  StandbyCodesRepository,
  ConsoleRepository,
];

/** The shared pieces every feature uses: database, clock, cipher, repositories, journal, auth helpers. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRuntime(runtime: AppRuntime): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: runtime.config },
      { provide: CLOCK, useValue: runtime.clock },
      { provide: SLEEP, useValue: runtime.sleep ?? REAL_SLEEP },
      { provide: MAILER, useValue: createMailer(runtime.config) },
      { provide: DataSource, useValue: runtime.dataSource },
      { provide: Db, useValue: new Db(runtime.dataSource) },
      { provide: SecretCipher, useValue: new SecretCipher(runtime.config.encryptionKey, runtime.config.previousEncryptionKeys) },
      ...REPOSITORIES.map((repository) => ({ provide: repository, useFactory: (db: Db) => new repository(db), inject: [Db] })),
      { provide: JournalWriter, useFactory: (db: Db, clock: Clock) => new JournalWriter(db, clock), inject: [Db, CLOCK] },
      JournalInterceptor,
      // what each route declares of its refusals, read by ApiExceptionFilter (http/route-rules.ts)
      RouteRulesTable,
      // the `ra` family's refusal body, which the filter builds for those routes
      // outage state: one log line per change, read by ApiExceptionFilter and the readiness check
      {
        provide: DatabaseHealth,
        useFactory: () => {
          const health = new DatabaseHealth();
          health.watch(runtime.dataSource);
          return health;
        },
      },
      // counters the services add to, and the pool read when /metrics is scraped (metrics/app-metrics.ts)
      { provide: AppMetrics, useValue: new AppMetrics(runtime.dataSource) },
      {
        provide: AuthThrottle,
        useFactory: (clock: Clock, failures: AuthFailuresRepository) => new AuthThrottle(clock, failures),
        inject: [CLOCK, AuthFailuresRepository],
      },
      // the client's address behind TRUSTED_PROXIES: for the auth throttle and the access history
      { provide: ClientAddressResolver, useValue: new ClientAddressResolver(runtime.config.trustedProxies ?? []) },
      { provide: VerifiedCredentialsCache, useFactory: (clock: Clock) => new VerifiedCredentialsCache(clock), inject: [CLOCK] },
      CredentialsChangeListener,
      {
        provide: ApiCredentialsVerifier,
        useFactory: (keys: ApiKeysRepository, c: SecretCipher, cache: VerifiedCredentialsCache) =>
          new ApiCredentialsVerifier(keys, c, cache),
        inject: [ApiKeysRepository, SecretCipher, VerifiedCredentialsCache],
      },
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((p) => ('provide' in p ? p.provide : p)) };
  }
}
