import { AccountId } from '@twofold/domain';
import { randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';
import { startTestApp, TestApp } from '../testing/test-app';
import { clientReading, hiddenInputs, submitCodeOnPage, totpCode, totpUser } from './client-kit';

/**
 * The IIS / OWA adapter (and the ASP.NET samples), replayed as it calls us: `POST
 * /access/requests` with a PascalCase body holding `userPhone`, `Callback {Action, Target: "_self"}`
 * and `claims {rawUserName}`, its own `mf-trace-id`; it reads `success`, `message` (looking for
 * `UserNotRegistered` and `Users quota exceeded`) and `model.url`, takes the page's postback field
 * case-insensitively, and verifies the JWT itself: HS256 over the UTF-8 secret, `aud` one string
 * equal to its key, `exp`, a non-empty `sub`, the `rawUserName` claim.
 */
describe('client: IIS / OWA adapter (POST /access/requests, HS256 token)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let owa: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount({ licenses: 3 })).account.id;
    owa = await t.newResource(accountId, 'OWA');
  });
  afterAll(() => t.close());

  const create = (body: object, traceId = randomUUID()) =>
    t
      .as(owa)
      .post('/access/requests')
      .set('mf-trace-id', traceId)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));

  const iisBody = (identity: string) => ({
    Identity: identity,
    userPhone: '+7 (912) 345-67-89',
    Callback: { Action: 'https://mail.corp.example/owa/mfa/callback', Target: '_self' },
    claims: { rawUserName: `CORP\\${identity}` },
  });

  it('creates the request, the page posts the token back, and the token passes the adapter’s own checks', async () => {
    await totpUser(t, accountId, 'olga');
    const traceId = randomUUID();
    const created = await create(iisBody('olga'), traceId);
    expect(clientReading(created.status)).toBe('answer');
    expect(created.headers['mf-trace-id']).toBe(traceId);
    expect(created.body).toMatchObject({
      success: true,
      message: null,
      model: { url: expect.stringMatching(/^http:\/\/twofold\.test\/access\//) },
    });

    const granted = await submitCodeOnPage(t, created.body.model.url, totpCode(t));
    expect(granted.status).toBe(200);
    expect(granted.text).toContain('action="https://mail.corp.example/owa/mfa/callback"');
    // the adapter reads the posted field whatever its case: there is exactly one, the token
    const posted = [...hiddenInputs(granted.text)].filter(([name]) => name.toLowerCase() === 'accesstoken');
    expect(posted).toHaveLength(1);
    const token = posted[0][1];

    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(owa.apiSecret), {
      algorithms: ['HS256'],
      audience: owa.apiKey,
      currentDate: t.clock.now(),
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(typeof payload.aud).toBe('string');
    expect(payload.sub).toBe('olga');
    expect(payload['rawUserName']).toBe('CORP\\olga');
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
    expect(decodeJwt(token).jti).toBe(created.body.model.id);
  });

  it('an unknown identity while every licence is in use: 200, success false, message "Users quota exceeded"', async () => {
    await totpUser(t, accountId, 'petr');
    await totpUser(t, accountId, 'raisa'); // with olga, all 3 licences
    const refused = await create(iisBody('sergei'));
    expect(clientReading(refused.status)).toBe('answer');
    expect(refused.body).toEqual({ model: null, success: false, message: 'Users quota exceeded' });
    // a known identity still gets its request
    expect((await create(iisBody('petr'))).body).toMatchObject({ success: true, model: { status: 'AwaitingAuthentication' } });
  });

  it('the ASP.NET samples: PascalCase with Claims null', async () => {
    const res = await create({ Identity: 'olga', Callback: { Action: 'https://app.corp.example/mfa', Target: '_self' }, Claims: null });
    expect(res.body).toMatchObject({ success: true, model: { status: 'AwaitingAuthentication' } });
  });
});
