import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The RSA keys signing JwtRS256 access tokens, private halves encrypted. At most one
 * key is active: the partial unique index lets two API instances starting at once on an empty table
 * insert one key between them (the loser's insert does nothing and it reads the winner's key).
 */
export class TokenSigningKeys1764100000001 implements MigrationInterface {
  name = 'TokenSigningKeys1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE token_signing_keys (
        kid text PRIMARY KEY,
        private_key_enc bytea NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        retired_at timestamptz
      )`);
    await q.query(
      `CREATE UNIQUE INDEX token_signing_keys_one_active ON token_signing_keys ((retired_at IS NULL)) WHERE retired_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE token_signing_keys`);
  }
}
