import { startTestApp, TestApp } from '../../test/testing/test-app';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);

/**
 * What the account shows on its portals: support contact, showcase and logos, set with the account
 * key (journaled) and read by the portal's resource; logos are images by their bytes, small, safely named.
 */
describe('self-service settings: support info, showcase, logos', () => {
  let t: TestApp;
  let account: Awaited<ReturnType<TestApp['newAccount']>>;
  let portal: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    account = await t.newAccount();
    portal = await t.newResource(account.account.id, 'Portal');
  });
  afterAll(() => t.close());

  const put = (path: string, body: unknown) =>
    t
      .as(account)
      .put(path)
      .send(body as object);
  const upload = (name: string, bytes: Buffer) =>
    t
      .as(account)
      .post('/settings/showcase/logos')
      .send({ name, data: bytes.toString('base64') });
  const journal = async () =>
    (await t.database.dataSource.query(
      `SELECT object, action, success, additional_fields AS "fields" FROM journal_events WHERE account_id = $1 AND object = 'SelfService' ORDER BY event_date, id`,
      [account.account.id],
    )) as { action: string; success: boolean; fields: Record<string, string> }[];

  it('support info: set, read back by the account and by the portal, journaled', async () => {
    const res = await put('/settings/support-info', { AdminName: ' IT desk ', adminEmail: 'it@corp.example', adminPhone: null });
    expect(res.body).toEqual({
      model: { adminName: 'IT desk', adminEmail: 'it@corp.example', adminPhone: null },
      success: true,
      message: null,
    });
    const read = await t.as(portal).get('/self-service/support-info');
    expect(read.body.model).toEqual({ adminName: 'IT desk', adminEmail: 'it@corp.example', adminPhone: null });
    expect((await put('/settings/support-info', { adminEmail: 'not an email' })).status).toBe(400);
    expect((await journal()).map((e) => `${e.action} ${e.success}`).sort()).toEqual(['ChangeSupportInfo false', 'ChangeSupportInfo true']);
  });

  it('showcase: only http(s) links, logos by safe names; the portal reads it at the top level', async () => {
    const bad = [
      { enabled: true, showcaseLinks: [{ url: 'javascript:alert(1)', title: 'x' }] },
      { enabled: true, showcaseLinks: [{ url: 'https://a.example', title: 'x', image: '../../etc/passwd' }] },
      { enabled: 'yes', showcaseLinks: [] },
    ];
    for (const body of bad) expect((await put('/settings/showcase', body)).status).toBe(400);
    const ok = await put('/settings/showcase', {
      enabled: true,
      showcaseLinks: [{ url: 'https://a.example', title: 'App', image: 'app.webp' }],
    });
    expect(ok.status).toBe(200);
    const read = await t.as(portal).get('/self-service/settings/showcase');
    expect(read.body).toMatchObject({
      enabled: true,
      showcaseLinks: [{ resourceId: '', url: 'https://a.example/', title: 'App', image: 'app.webp', openInNewTab: false }],
    });
  });

  it('logos: PNG, JPEG and WebP by their bytes; a renamed HTML or SVG file, a traversal name, a big file are refused', async () => {
    expect((await upload('a.png', PNG)).body.model).toMatchObject({ contentType: 'image/png' });
    expect((await upload('b.jpg', JPEG)).body.model).toMatchObject({ contentType: 'image/jpeg' });
    // the name does not decide the type: WebP bytes named .png are served as WebP
    expect((await upload('c.png', WEBP)).body.model).toMatchObject({ contentType: 'image/webp' });
    const html = await upload('evil.png', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(html.status).toBe(400);
    expect(html.body.message).toBe('The logo must be a PNG, JPEG or WebP image.');
    expect((await upload('evil.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).status).toBe(400);
    for (const name of ['..', '.hidden', 'a%2F..%2Fb', 'x'.repeat(101)]) expect((await upload(name, PNG)).status).not.toBe(200);
    const big = Buffer.concat([PNG, Buffer.alloc(256 * 1024)]);
    expect((await upload('big.png', big)).status).toBe(400);
    const huge = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    expect((await upload('huge.png', huge)).status).toBe(413);
    const listed = await t.as(account).get('/settings/showcase/logos');
    expect(listed.body.model).toEqual(['a.png', 'b.jpg', 'c.png']);

    const served = await t.as(portal).get('/self-service/settings/showcase/logo/c.png');
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await t.as(portal).get('/self-service/settings/showcase/logo/..%2F..%2Fetc')).status).not.toBe(200);

    const removed = await t.as(account).delete('/settings/showcase/logos/a.png');
    expect(removed.status).toBe(200);
    expect((await t.as(portal).get('/self-service/settings/showcase/logo/a.png')).status).toBe(404);
    const actions = (await journal()).filter((e) => e.action.endsWith('Logo') && e.success).map((e) => [e.action, e.fields['LogoName']]);
    // one clock instant: the events' order is not the calls' order
    expect(actions.map((action) => action.join(' ')).sort()).toEqual([
      'DeleteLogo a.png',
      'UploadLogo a.png',
      'UploadLogo b.jpg',
      'UploadLogo c.png',
    ]);
  });

  it("another account's portal sees its own settings only", async () => {
    const other = await t.newAccount();
    const otherPortal = await t.newResource(other.account.id, 'Other');
    const read = await t.as(otherPortal).get('/self-service/support-info');
    expect(read.body.model).toEqual({ adminName: null, adminEmail: null, adminPhone: null });
    expect((await t.as(otherPortal).get('/self-service/settings/showcase/logo/b.jpg')).status).toBe(404);
  });
});
