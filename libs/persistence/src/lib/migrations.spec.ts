import { Client } from 'pg';
import { createEmptyDatabase } from '../testing';
import { createDataSource } from './data-source';

describe('migrations', () => {
  it('build the whole schema from an empty database, and revert it', async () => {
    const empty = await createEmptyDatabase();
    const dataSource = createDataSource({ url: empty.url });
    try {
      await dataSource.initialize();
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      expect(applied.map((m) => m.name)).toEqual([
        'InitialSchema1763700000000',
        'EnrollmentTokens1763800000000',
        'AdministratorActivation1763900000000',
        'AccessRequestPendingSecret1764000000000',
        'ExistingClients1764100000000',
        'TokenSigningKeys1764100000001',
        'WrongCodesIndex1764200000000',
        'AccountUserCount1764300000000',
        'SettledDayTotals1764400000000',
        'AuthFailures1764500000000',
        'WrongCodeStreaks1764600000000',
        'AccessRequestRates1764600000001',
        'AuthenticatorDisabled1764700000000',
        'AccountDisplayName1764700000001',
        'AdministratorMailLanguage1764750000000',
        'DropWrongCodeStreaksLocked1764750000001',
        'IpLists1764800000000',
        'AccessRequestBypassed1764800000001',
        'AccountIdentityFormat1764900000000',
        'AccessRequestsUser1764950000000',
        'RefreshedTokens1765000000000',
        'UsersIdentityKey1765000000001',
        'Approvals1765200000000',
        'ApprovalsLdapChannel1765300000000',
        'SelfService1765500000000',
        'MobileAppDevices1765600000000',
        'PhoneCodes1765700000000',
        'StandbyCodes1765800000000',
        'ForeignKeyIndexes1766200000000',
        'Console1766300000000',
        'MobileAppPushGone1766400000000',
        'WrongCodeStreaksAfterUserLock1766500000000',
        'UsersByIdentityFunction1766600000000',
        'DayPageFunctions1766700000000',
        'UsersPageFunction1766800000000',
        'GrantSpendingFunction1766900000000',
        'KeptPlansWithoutJit1767000000000',
      ]);
      expect(await dataSource.showMigrations()).toBe(false);

      const client = new Client({ connectionString: empty.url });
      await client.connect();
      const tables = await client.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      const indexes = await client.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`);
      await client.end();
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'access_request_rates',
        'access_requests',
        'accounts',
        'administrators',
        'approvals',
        'auth_failures',
        'authenticators',
        'console_sessions',
        'console_sign_ins',
        'custom_fields',
        'enrollment_tokens',
        'groups',
        'ip_list_resources',
        'ip_lists',
        'journal_events',
        'mobile_app_devices',
        'mobile_app_enrollment_tokens',
        'my_factors_pages',
        'phone_code_policies',
        'phone_codes',
        'phone_gateways',
        'phones',
        'refreshed_tokens',
        'resources',
        'schema_migrations',
        'self_service_settings',
        'settled_day_totals',
        'showcase_logos',
        'standby_codes',
        'telegram_binding_links',
        'telegram_bindings',
        'token_signing_keys',
        'user_groups',
        'users',
        'web_push_vapid_keys',
        'wrong_code_streaks',
      ]);
      const indexNames = indexes.rows.map((r) => r.indexname);
      for (const expected of [
        'users_account_identity',
        'administrators_account_identity',
        'journal_events_account_date',
        'access_requests_account_created',
        'access_requests_account_awaiting',
        'groups_account_name',
        'token_signing_keys_one_active',
        'ip_lists_account_name',
        'ip_list_resources_resource',
        'access_requests_user',
        'approvals_access_request',
        'approvals_user_pending',
        'approvals_user_not_me',
        'telegram_bindings_account_chat',
        'phone_codes_request',
        'phone_codes_user_time',
        'phone_codes_account_time',
        'standby_codes_user',
        'console_sessions_administrator',
        'console_sign_ins_administrator',
        'access_requests_resource',
      ]) {
        expect(indexNames).toContain(expected);
      }

      // Deleting a user or a resource makes PostgreSQL look up its rows in every table whose foreign key
      // points at it (to cascade or to set NULL), one lookup per deleted row: without an index led by the
      // foreign key's column, each lookup reads the whole table, and an identity-format apply deleting
      // thousands of merged users read the authenticators once per user (past the statement timeout).
      const unindexed: { fk: string }[] = await dataSource.query(
        `SELECT c.conrelid::regclass::text || '.' || a.attname || ' -> ' || c.confrelid::regclass::text AS fk
           FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.contype = 'f' AND c.confrelid IN ('users'::regclass, 'resources'::regclass, 'access_requests'::regclass)
            AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1] AND i.indpred IS NULL)
          ORDER BY 1`,
      );
      expect(unindexed.map((r) => r.fk)).toEqual([]);

      // the per-user sum of recent wrong codes gave way to wrong_code_streaks
      expect(indexNames).not.toContain('access_requests_user_wrong_codes');
      // the primary key's (account_id, user_id) prefix serves the users list's lockouts
      expect(indexNames).not.toContain('wrong_code_streaks_locked');

      for (let i = 0; i < applied.length; i += 1) await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await dataSource.showMigrations()).toBe(true);
      const left = await dataSource.query(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
      );
      expect(left[0].n).toBe(0);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await empty.drop();
    }
  });
});
