import { ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';

/**
 * The settings of one more connection, outside the pool, for what needs a session of its own
 * (LISTEN, a session advisory lock): DATABASE_LISTEN_URL when set (a session connection past a
 * transaction pooler, which would lose notifications and session locks), else the pool's own
 * settings (DATABASE_URL or the embedded server).
 */
export function sessionConnectionConfig(dataSource: DataSource, config: AppConfig, applicationName: string): ClientConfig {
  const listenUrl = config.databaseListenUrl;
  if (listenUrl) {
    // only LISTEN and lock functions run there: no statement timeout to set (a session pooler might refuse it)
    return {
      connectionString: listenUrl,
      connectionTimeoutMillis: config.databaseTimeouts.connectTimeoutMs,
      application_name: applicationName,
    };
  }
  const pool = (dataSource.driver as unknown as { master: { options: ClientConfig } }).master;
  return { ...pool.options, application_name: applicationName };
}
