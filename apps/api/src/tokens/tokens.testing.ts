import { generateTotp, parseBase32Key } from '@twofold/otp';
import { TestApp } from '../../test/testing/test-app';

/**
 * For tests: the access token the access page hands a new identity's browser: the
 * request is created with the resource's credentials, the page enrolls an authenticator app and
 * accepts its first code, and the token is read from the granted page's auto-submitting form.
 */
export async function accessPageToken(
  t: TestApp,
  resourceAuthorization: string,
  identity: string,
  claims: Record<string, unknown> = {},
): Promise<string> {
  const created = await t
    .as(resourceAuthorization)
    .post('/access/requests')
    .send({ identity, language: 'en', claims, callback: { action: 'https://app.example/sso/callback', target: '_self' } });
  if (created.status !== 200 || !created.body.model?.url)
    throw new Error(`no access request: ${created.status} ${JSON.stringify(created.body)}`);
  const path = new URL(created.body.model.url).pathname;
  // one browser loads the page and posts its form: it sends back the cookie the page set
  const browser = t.browser();
  const page = await browser.get(path);
  const secret = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1];
  const formToken = /name="formToken"[^>]*value="([^"]+)"/.exec(page.text)?.[1];
  if (!secret || !formToken) throw new Error(`no enrollment on the page (${page.status})`);
  const code = generateTotp({ secret: parseBase32Key(secret), time: t.clock.now().getTime() });
  const granted = await browser.post(path).type('form').send({ code, formToken });
  // the field is `accessToken`; matched in any case
  const token = /<input type="hidden" name="accesstoken" value="([^"]+)">/i.exec(granted.text)?.[1];
  if (!token) throw new Error(`no access token on the granted page (${granted.status})`);
  return token;
}
