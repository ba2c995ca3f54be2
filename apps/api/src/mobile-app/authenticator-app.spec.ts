import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { cacheControlOf, loadStaticFiles } from '../http/static-app-files';
import { APP_CONTENT_SECURITY_POLICY, APP_FILE_NOT_FOUND } from './authenticator-app.controller';

/** A build of the app as `nx build authenticator` lays it out, so that this spec needs no build. */
function fakeBuild(): string {
  const directory = mkdtempSync(join(tmpdir(), 'twofold-app-'));
  writeFileSync(join(directory, 'index.html'), '<!doctype html><script defer src="app.0123456789ab.js"></script>');
  writeFileSync(join(directory, 'app.0123456789ab.js'), 'console.log(1)');
  writeFileSync(join(directory, 'app.ba9876543210.css'), 'body{}');
  writeFileSync(join(directory, 'sw.js'), 'self.addEventListener("push", () => {})');
  writeFileSync(join(directory, 'manifest.webmanifest'), '{}');
  writeFileSync(join(directory, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(directory, 'notes.txt'), 'not served');
  return directory;
}

describe('the authenticator app at $ACCESS_URL/app/', () => {
  let t: TestApp;
  let directory: string;

  beforeAll(async () => {
    directory = fakeBuild();
    t = await startTestApp({ authenticatorAppDir: directory });
  });
  afterAll(() => t?.close());

  it('serves the page with the strict CSP (own scripts only, own origin only, never framed) and no caching of the page', async () => {
    const res = await t.http().get('/access/app/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(readFileSync(join(directory, 'index.html'), 'utf8'));
    const csp = res.headers['content-security-policy'];
    expect(csp).toBe(APP_CONTENT_SECURITY_POLICY);
    for (const rule of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"])
      expect(csp).toContain(rule);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('sends the folder without its slash to the folder (the relative URLs of the app need it)', async () => {
    const res = await t.http().get('/access/app').expect(301);
    expect(res.headers['location']).toBe('app/');
  });

  it('serves hashed files for good, the service worker and the manifest revalidated or briefly, with their types', async () => {
    const script = await t.http().get('/access/app/app.0123456789ab.js').expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['content-security-policy']).toBe(APP_CONTENT_SECURITY_POLICY);
    const style = await t.http().get('/access/app/app.ba9876543210.css').expect(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    const worker = await t.http().get('/access/app/sw.js').expect(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await t.http().get('/access/app/manifest.webmanifest').expect(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    expect(manifest.headers['cache-control']).toBe('public, max-age=86400');
    expect((await t.http().get('/access/app/icon-192.png').expect(200)).headers['content-type']).toBe('image/png');
  });

  it('serves nothing else: other files of the folder, other names, paths out of it', async () => {
    for (const path of ['/access/app/notes.txt', '/access/app/missing.js', '/access/app/..%2Fpackage.json']) {
      const res = await t.http().get(path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: APP_FILE_NOT_FOUND, traceId: expect.any(String) });
      expect(res.headers['content-security-policy']).toBe(APP_CONTENT_SECURITY_POLICY);
    }
  });

  it('leaves the access page its other ids', async () => {
    const res = await t.http().get('/access/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.headers['content-security-policy']).not.toBe(APP_CONTENT_SECURITY_POLICY);
  });
});

describe("the app's files", () => {
  it('a folder without a build is no app (the route answers 404 saying so)', () => {
    expect(loadStaticFiles(mkdtempSync(join(tmpdir(), 'twofold-app-empty-')))).toBeNull();
  });

  it('cache rules by name', () => {
    expect(cacheControlOf('app.0123456789ab.js')).toContain('immutable');
    expect(cacheControlOf('app.js')).toBe('public, max-age=86400');
    expect(cacheControlOf('index.html')).toBe('no-cache');
  });

  it("the app's page has no inline script or style, which its CSP would refuse", () => {
    const page = readFileSync(join(__dirname, '../../../authenticator/src/static/index.html'), 'utf8');
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });
});
