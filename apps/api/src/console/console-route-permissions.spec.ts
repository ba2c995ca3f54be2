import { readFileSync } from 'node:fs';
import { ADMIN_ROLES, AdminRole, roleMay } from '@twofold/domain';
import { ConsoleTestSession, newConsoleAdmin, signInToConsole } from '../../test/testing/console-admin';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { OPENAPI_FILE } from '../app/document-app';
import { ACCOUNT_AUTH } from '../openapi/api-route';
import { CONSOLE_ROUTE_PERMISSIONS, consolePermissionOf, consoleRouteKey } from './console-route-permissions';

interface Operation {
  security?: Record<string, unknown>[];
}

/** Every route of the API document that takes the account API key: what the console may call. */
function accountRoutes(): { method: string; path: string }[] {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
  const routes: { method: string; path: string }[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation.security?.some((scheme) => ACCOUNT_AUTH in scheme)) routes.push({ method: method.toUpperCase(), path });
    }
  }
  return routes;
}

/** A path of the document with its parameters filled: ids that exist nowhere, a real authenticator kind. */
function concrete(path: string): string {
  return path
    .replace(/\{type\}/g, 'totptoken')
    .replace(/\{name\}/g, 'logo.png')
    .replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
}

describe('the console route table', () => {
  const routes = accountRoutes();

  it('names a permission for every account API route, and only for real routes', () => {
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((route) => consolePermissionOf(route.method, route.path) === null).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    const keys = new Set(routes.map((route) => consoleRouteKey(route.method, route.path)));
    expect(Object.keys(CONSOLE_ROUTE_PERMISSIONS).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('writes a route the same with or without its version, in either parameter syntax', () => {
    expect(consoleRouteKey('GET', '/v2/users/:id/authenticators')).toBe('GET /users/*/authenticators');
    expect(consoleRouteKey('get', '/users/{id}/authenticators/')).toBe('GET /users/*/authenticators');
    expect(consolePermissionOf('HEAD', '/journal')).toBe('journal.read');
    expect(consolePermissionOf('GET', '/constructor')).toBeNull();
  });
});

describe('the role table enforced on every account API route (route × role)', () => {
  let t: TestApp;
  const sessions = new Map<AdminRole, ConsoleTestSession>();

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await t.newAccount({ name: 'Role matrix' });
    for (const role of ADMIN_ROLES) sessions.set(role, await signInToConsole(t, await newConsoleAdmin(t, owner.account.id, role)));
  });
  afterAll(() => t.close());

  for (const route of accountRoutes()) {
    const permission = consolePermissionOf(route.method, route.path);
    it(`${route.method} ${route.path} (${permission})`, async () => {
      for (const role of ADMIN_ROLES) {
        const session = sessions.get(role);
        if (!session || !permission) throw new Error(`no session for ${role} or no permission`);
        const call = t
          .http()
          [route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](concrete(route.path))
          .set(session.headers);
        const res = route.method === 'GET' || route.method === 'DELETE' ? await call : await call.send({});
        const refused = res.status === 403 && res.body.message === 'Your role does not allow this.';
        expect({ role, refused }).toEqual({ role, refused: !roleMay(role, permission) });
        // a session of any role is a session: never asked for credentials
        expect({ role, status: res.status }).not.toEqual({ role, status: 401 });
      }
    });
  }
});
