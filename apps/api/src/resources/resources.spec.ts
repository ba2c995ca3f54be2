import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

describe('resources', () => {
  let t: TestApp;
  let authorization: string;
  let accountId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    authorization = account.authorization;
    accountId = account.account.id;
  });
  afterAll(() => t.close());

  it('creates a resource whose secret is shown once, then only through the journaled display', async () => {
    const created = await t.as(authorization).post('/resources').send({ Name: 'VPN' });
    expect(created.status).toBe(201);
    const { id, apiKey, apiSecret } = created.body.model;
    expect(created.body.model).toEqual({
      id: expect.any(String),
      name: 'VPN',
      apiKey: expect.any(String),
      apiSecret: expect.any(String),
      tokenFormat: 'JwtHS256',
      frameOrigins: [],
    });

    const list = await t.as(authorization).get('/resources');
    expect(list.body.model.data).toEqual([{ id, name: 'VPN', apiKey, tokenFormat: 'JwtHS256', frameOrigins: [] }]);
    expect(JSON.stringify(list.body)).not.toContain(apiSecret);

    const shown = await t.as(authorization).get(`/resources/${id}/secret`);
    expect(shown.body.model.apiSecret).toBe(apiSecret);

    const stored = await t.database.dataSource.query('SELECT api_secret_enc FROM resources WHERE id = $1', [id]);
    expect(Buffer.from(stored[0].api_secret_enc).toString('latin1')).not.toContain(apiSecret);

    t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
    const journal = await t.as(authorization).get('/journal?eventDate=2026-05-20&object=Resource');
    t.clock.set(TEST_NOW);
    expect(journal.body.model.data.map((e: { action: string }) => e.action)).toEqual(['Create', 'DisplayResourceSecret']);
    expect(JSON.stringify(journal.body)).not.toContain(apiSecret);
  });

  it('rotates a secret: the new one shown once, the old one refused at once, journaled without either', async () => {
    const { id, apiKey, apiSecret } = (await t.as(authorization).post('/resources').send({ name: 'Rotated VPN' })).body.model;
    const asResource = (secret: string) => `Basic ${Buffer.from(`${apiKey}:${secret}`).toString('base64')}`;
    await t.as(asResource(apiSecret)).get('/access/requests/00000000-0000-4000-8000-000000000000').expect(404);

    const rotated = await t.as(authorization).post(`/resources/${id}/secret`).expect(200);
    const fresh = rotated.body.model.apiSecret as string;
    expect(rotated.body.model).toMatchObject({ id, apiKey });
    expect(fresh).not.toBe(apiSecret);
    await t.as(asResource(apiSecret)).get('/access/requests/00000000-0000-4000-8000-000000000000').expect(401);
    await t.as(asResource(fresh)).get('/access/requests/00000000-0000-4000-8000-000000000000').expect(404);

    t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
    const journal = await t.as(authorization).get('/journal?eventDate=2026-05-20&object=Resource');
    t.clock.set(TEST_NOW);
    const update = journal.body.model.data.find((e: { action: string; additionalFields: Record<string, string> }) => e.action === 'Update');
    expect(update.additionalFields).toMatchObject({ ResourceId: id, ResourceName: 'Rotated VPN', Reason: 'SecretRotated' });
    expect(JSON.stringify(journal.body)).not.toContain(fresh);
    expect(JSON.stringify(journal.body)).not.toContain(apiSecret);

    const other = await t.newAccount();
    await t.as(other.authorization).post(`/resources/${id}/secret`).expect(404);
  });

  it('renames and deletes', async () => {
    const { id } = (await t.as(authorization).post('/resources').send({ name: 'Wiki' })).body.model;
    const renamed = await t.as(authorization).put(`/resources/${id}`).send({ name: 'Intranet' });
    expect(renamed.body.model.name).toBe('Intranet');
    expect((await t.as(authorization).delete(`/resources/${id}`)).status).toBe(200);
    expect((await t.as(authorization).get(`/resources/${id}/secret`)).status).toBe(404);
  });

  it('answers 400 for an empty name', async () => {
    expect((await t.as(authorization).post('/resources').send({ name: '' })).status).toBe(400);
    expect((await t.as(authorization).post('/resources').send({ name: '   ' })).status).toBe(400);
  });

  it("answers 404 for another account's resource", async () => {
    const other = await t.newAccount();
    const theirs = await t.newResource(other.account.id);
    expect((await t.as(authorization).get(`/resources/${theirs.resource.id}/secret`)).status).toBe(404);
    expect((await t.as(authorization).delete(`/resources/${theirs.resource.id}`)).status).toBe(404);
    expect(accountId).not.toBe(other.account.id);
  });

  describe('token format and frame origins', () => {
    const resourcesOf = async () => (await t.as(authorization).get('/resources?limit=1000')).body.model.data;
    const journalOf = async (resourceId: string) => {
      const rows = await t.database.dataSource.query(
        `SELECT action, success, additional_fields FROM journal_events WHERE object = 'Resource' AND additional_fields->>'ResourceId' = $1 ORDER BY seq`,
        [resourceId],
      );
      return rows as { action: string; success: boolean; additional_fields: Record<string, string> }[];
    };

    it('creates with a token format and origins, keys and the format in any case, origins normalized and deduplicated', async () => {
      const created = await t
        .as(authorization)
        .post('/resources')
        .send({
          NAME: 'Portal',
          TokenFormat: 'jwtrs256',
          FRAMEORIGINS: ['https://ADFS.corp.example:443/', 'https://adfs.corp.example', 'http://localhost:8080'],
        });
      expect(created.status).toBe(201);
      expect(created.body.model).toMatchObject({
        name: 'Portal',
        tokenFormat: 'JwtRS256',
        frameOrigins: ['https://adfs.corp.example', 'http://localhost:8080'],
      });
      const { id, apiSecret } = created.body.model;
      const [row] = await t.database.dataSource.query('SELECT token_format, frame_origins FROM resources WHERE id = $1', [id]);
      expect(row).toEqual({ token_format: 'JwtRS256', frame_origins: ['https://adfs.corp.example', 'http://localhost:8080'] });
      expect((await resourcesOf()).find((r: { id: string }) => r.id === id)).toMatchObject({
        tokenFormat: 'JwtRS256',
        frameOrigins: ['https://adfs.corp.example', 'http://localhost:8080'],
      });
      const shown = await t.as(authorization).get(`/resources/${id}/secret`);
      expect(shown.body.model).toMatchObject({
        tokenFormat: 'JwtRS256',
        frameOrigins: ['https://adfs.corp.example', 'http://localhost:8080'],
        apiSecret,
      });

      const [event] = await journalOf(id);
      expect(event).toMatchObject({ action: 'Create', success: true });
      expect(event.additional_fields).toMatchObject({
        ResourceName: 'Portal',
        TokenFormat: 'JwtRS256',
        FrameOrigins: JSON.stringify(['https://adfs.corp.example', 'http://localhost:8080']),
      });
      expect(JSON.stringify(event)).not.toContain(apiSecret);
    });

    it('PUT changes what is given and keeps what is omitted or null', async () => {
      const { id } = (
        await t
          .as(authorization)
          .post('/resources')
          .send({ name: 'Wiki', frameOrigins: ['https://a.example'] })
      ).body.model;
      const format = await t.as(authorization).put(`/resources/${id}`).send({ Name: 'Wiki', TOKENFORMAT: 'JwtRS256' });
      expect(format.status).toBe(200);
      expect(format.body.model).toEqual({
        id,
        name: 'Wiki',
        apiKey: expect.any(String),
        tokenFormat: 'JwtRS256',
        frameOrigins: ['https://a.example'],
      });

      const origins = await t
        .as(authorization)
        .put(`/resources/${id}`)
        .send({ name: 'Wiki 2', tokenFormat: null, frameOrigins: ['https://b.example/'] });
      expect(origins.body.model).toMatchObject({ name: 'Wiki 2', tokenFormat: 'JwtRS256', frameOrigins: ['https://b.example'] });

      const cleared = await t.as(authorization).put(`/resources/${id}`).send({ name: 'Wiki 2', tokenFormat: 'JwtHS256', frameOrigins: [] });
      expect(cleared.body.model).toMatchObject({ tokenFormat: 'JwtHS256', frameOrigins: [] });
      const [row] = await t.database.dataSource.query('SELECT name, token_format, frame_origins FROM resources WHERE id = $1', [id]);
      expect(row).toEqual({ name: 'Wiki 2', token_format: 'JwtHS256', frame_origins: [] });

      // name stays required on PUT
      expect((await t.as(authorization).put(`/resources/${id}`).send({ tokenFormat: 'JwtRS256' })).status).toBe(400);

      const updates = (await journalOf(id)).filter((e) => e.action === 'Update' && e.success);
      expect(updates.map((e) => e.additional_fields)).toEqual([
        expect.objectContaining({ ResourceName: 'Wiki', TokenFormat: 'JwtRS256' }),
        expect.objectContaining({ ResourceName: 'Wiki 2', FrameOrigins: '["https://b.example"]' }),
        expect.objectContaining({ ResourceName: 'Wiki 2', TokenFormat: 'JwtHS256', FrameOrigins: '[]' }),
      ]);
      expect(updates[0].additional_fields).not.toHaveProperty('FrameOrigins');
      expect(updates[1].additional_fields).not.toHaveProperty('TokenFormat');
    });

    it.each([
      [{ tokenFormat: 'RS256' }, 'tokenFormat'],
      [{ tokenFormat: 42 }, 'tokenFormat'],
      [{ frameOrigins: 'https://a.example' }, 'frameOrigins'],
      [{ frameOrigins: ['https://a.example/login'] }, '"https://a.example/login"'],
      [{ frameOrigins: ['https://a.example', 'javascript:alert(1)'] }, '"javascript:alert(1)"'],
      [{ frameOrigins: ['https://user@a.example'] }, '"https://user@a.example"'],
      [{ frameOrigins: ['https://a.example?x'] }, '"https://a.example?x"'],
      [{ frameOrigins: ['ftp://a.example'] }, '"ftp://a.example"'],
      [{ frameOrigins: [7] }, 'frameOrigins: 7'],
      [{ frameOrigins: Array.from({ length: 21 }, (_, i) => `https://o${i}.example`) }, 'at most 20'],
    ])('answers 400 for %j on POST and PUT, and changes nothing', async (fields, named) => {
      const { id } = (await t.as(authorization).post('/resources').send({ name: 'Strict' })).body.model;
      const before = await resourcesOf();
      const created = await t
        .as(authorization)
        .post('/resources')
        .send({ name: 'Bad', ...fields });
      expect(created.status).toBe(400);
      expect(created.body).toMatchObject({ model: null, success: false });
      expect(created.body.message).toContain(named);
      const updated = await t
        .as(authorization)
        .put(`/resources/${id}`)
        .send({ name: 'Renamed', ...fields });
      expect(updated.status).toBe(400);
      expect(updated.body.message).toContain(named);
      expect(await resourcesOf()).toEqual(before);
    });

    it('never echoes a huge bad origin', async () => {
      const huge = `https://${'x'.repeat(50_000)}.example/path`;
      const res = await t
        .as(authorization)
        .post('/resources')
        .send({ name: 'Huge', frameOrigins: [huge] });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('"https://xxx');
      expect(res.body.message.length).toBeLessThan(300);
    });
  });
});
