import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `mobile_app_devices.push_gone`: the device's push service refused its subscription for good
 * (404/410), so the app was likely removed from the phone: its approvals are Undeliverable at once.
 * A device that never subscribed (notifications blocked) is asked all the same: the app lists what
 * waits when it is opened. The app's next subscription clears the mark.
 */
export class MobileAppPushGone1766400000000 implements MigrationInterface {
  name = 'MobileAppPushGone1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE mobile_app_devices ADD COLUMN push_gone boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE mobile_app_devices DROP COLUMN push_gone`);
  }
}
