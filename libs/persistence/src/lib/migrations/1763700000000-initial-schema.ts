import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first schema. Every table carries account_id and every lookup the API makes has an index that
 * starts with it: tenancy is part of each key, not a filter applied afterwards.
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        licenses integer NOT NULL CHECK (licenses >= 0),
        api_enabled boolean NOT NULL DEFAULT false,
        api_key text UNIQUE,
        api_secret_enc bytea,
        directory_sync boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (api_key IS NULL OR api_secret_enc IS NOT NULL)
      )`);
    await q.query(`
      CREATE TABLE administrators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        identity text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        status text NOT NULL,
        registration_date timestamptz NOT NULL,
        last_login_date timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX administrators_account_identity ON administrators (account_id, lower(identity))`);
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        identity text NOT NULL CHECK (identity <> ''),
        name text,
        email text,
        is_locked boolean NOT NULL DEFAULT false,
        source text NOT NULL DEFAULT 'Api' CHECK (source IN ('Api', 'Directory')),
        created_at timestamptz NOT NULL,
        last_login timestamptz
      )`);
    // A unique index, not a check-then-insert: parallel creations of one identity yield exactly one user.
    await q.query(`CREATE UNIQUE INDEX users_account_identity ON users (account_id, lower(identity))`);
    await q.query(`CREATE INDEX users_account_created ON users (account_id, created_at, id)`);
    await q.query(`
      CREATE TABLE groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        system boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX groups_account_name ON groups (account_id, lower(name))`);
    await q.query(`CREATE UNIQUE INDEX groups_one_system_group ON groups (account_id) WHERE system`);
    await q.query(`
      CREATE TABLE user_groups (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        group_id uuid NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, group_id)
      )`);
    await q.query(`CREATE INDEX user_groups_group ON user_groups (group_id)`);
    await q.query(`
      CREATE TABLE phones (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        number text NOT NULL CHECK (number ~ '^\\+[0-9]{7,15}$'),
        created_at timestamptz NOT NULL,
        UNIQUE (user_id, number)
      )`);
    await q.query(`
      CREATE TABLE custom_fields (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (name <> ''),
        value text NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX custom_fields_user_name ON custom_fields (user_id, lower(name))`);
    await q.query(`
      CREATE TABLE authenticators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('Totp', 'TotpToken', 'HotpToken', 'Telegram', 'Sms')),
        name text NOT NULL,
        secret_enc bytea,
        private_id_enc bytea,
        algorithm text CHECK (algorithm IN ('SHA1', 'SHA256', 'SHA512')),
        digits integer,
        hotp_counter bigint,
        last_time_step bigint,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX authenticators_account_user ON authenticators (account_id, user_id, kind)`);
    await q.query(`
      CREATE TABLE resources (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        api_key text NOT NULL UNIQUE,
        api_secret_enc bytea NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX resources_account ON resources (account_id, created_at, id)`);
    await q.query(`
      CREATE TABLE access_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        resource_id uuid NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        identity text NOT NULL,
        email text,
        phone text,
        language text NOT NULL DEFAULT 'ru',
        claims jsonb,
        callback_action text,
        callback_target text,
        status text NOT NULL CHECK (status IN ('AwaitingAuthentication', 'Granted', 'Denied', 'Expired')),
        failed_attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        granted_at timestamptz,
        authenticator text,
        country_code text,
        region text,
        city text,
        remote_host text,
        ip text,
        two_fa_device_ip text
      )`);
    // history reads one day of one account: (account, day) range scans
    await q.query(`CREATE INDEX access_requests_account_created ON access_requests (account_id, created_at, id)`);
    await q.query(`CREATE INDEX access_requests_account_identity ON access_requests (account_id, lower(identity), created_at)`);
    await q.query(`
      CREATE TABLE journal_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        -- insertion order, for a stable order among events of one millisecond
        seq bigint GENERATED ALWAYS AS IDENTITY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        event_date timestamptz NOT NULL,
        object text NOT NULL,
        action text NOT NULL,
        subject text NOT NULL,
        success boolean NOT NULL,
        additional_fields jsonb NOT NULL DEFAULT '{}'
      )`);
    // the journal reads one day of one account: (account, day) range scans
    await q.query(`CREATE INDEX journal_events_account_date ON journal_events (account_id, event_date, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'journal_events',
      'access_requests',
      'resources',
      'authenticators',
      'custom_fields',
      'phones',
      'user_groups',
      'groups',
      'users',
      'administrators',
      'accounts',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
