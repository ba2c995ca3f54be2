import { DomainError } from './domain-error';
import { formatIdentity, normalizeIdentity, parseIdentityFormat, parseUserIdentity, planIdentityFormat } from './identity-format';

const user = (id: string, identity: string, minute: number) => ({ id, identity, createdAt: new Date(Date.UTC(2026, 4, 20, 10, minute)) });

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('accepted');
}

describe('identity formats', () => {
  it('AsIs keeps the identity as sent', () => {
    expect(formatIdentity('AsIs', 'CORP\\Jane')).toBe('CORP\\Jane');
    expect(formatIdentity('AsIs', 'Jane@Corp.Example')).toBe('Jane@Corp.Example');
  });

  it('Login drops the domain up to the last backslash, the suffix from the first @, and lower-cases', () => {
    expect(formatIdentity('Login', 'CORP\\Jane')).toBe('jane');
    expect(formatIdentity('Login', 'jane@corp.example')).toBe('jane');
    expect(formatIdentity('Login', 'JANE')).toBe('jane');
    expect(formatIdentity('Login', 'A\\B\\Jane.Doe')).toBe('jane.doe');
    expect(formatIdentity('Login', 'CORP\\jane@corp.example')).toBe('jane');
    expect(formatIdentity('Login', 'jane@a@b')).toBe('jane');
    // the backslash goes first: what follows the last one is the login, with its own suffix cut
    expect(formatIdentity('Login', 'x@y\\Jane')).toBe('jane');
    expect(formatIdentity('Login', 'CORP\\ Jane Doe ')).toBe('jane doe');
    expect(formatIdentity('Login', 'ИВАНОВ@corp')).toBe('иванов');
  });

  it('Login leaves nothing of CORP\\, @corp.example or \\@x: refused with a message', () => {
    for (const identity of ['CORP\\', '@corp.example', '\\@x', 'CORP\\ @x']) {
      expect(formatIdentity('Login', identity)).toBeNull();
      expect(refusal(() => normalizeIdentity('Login', identity))).toBe(
        "Identity has no login under the identity format Login: nothing is left after the last '\\' and before the first '@'.",
      );
    }
    expect(normalizeIdentity('AsIs', '@corp.example')).toBe('@corp.example');
  });

  it('parseUserIdentity validates first (empty, length), then normalizes', () => {
    expect(parseUserIdentity('  CORP\\Jane ', 'Login')).toBe('jane');
    expect(parseUserIdentity('  CORP\\Jane ', 'AsIs')).toBe('CORP\\Jane');
    expect(refusal(() => parseUserIdentity('', 'Login'))).toBe('Identity must not be empty.');
    expect(refusal(() => parseUserIdentity('CORP\\', 'Login', 'identity'))).toMatch(/^identity has no login/);
  });

  it('parseIdentityFormat takes the two names in any case', () => {
    expect(parseIdentityFormat('login')).toBe('Login');
    expect(parseIdentityFormat('AsIs')).toBe('AsIs');
    for (const raw of ['Upn', '', null, 1, undefined])
      expect(refusal(() => parseIdentityFormat(raw))).toBe('format must be "AsIs" or "Login".');
  });
});

describe('planIdentityFormat', () => {
  it('plans nothing under AsIs', () => {
    expect(planIdentityFormat('AsIs', [user('1', 'CORP\\jane', 1), user('2', 'jane', 2)])).toEqual({
      renamed: [],
      merged: [],
      untouched: [],
    });
  });

  it('renames to the login and merges collisions into the oldest, which keeps its id', () => {
    const a = user('a', 'jane@corp.example', 3);
    const b = user('b', 'CORP\\Jane', 1);
    const c = user('c', 'jane', 2);
    const d = user('d', 'CORP\\Bob', 4);
    const e = user('e', 'carol', 0);
    const f = user('f', 'CORP\\', 5);
    const plan = planIdentityFormat('Login', [a, b, c, d, e, f]);
    expect(plan.renamed).toEqual([
      { user: b, to: 'jane' },
      { user: d, to: 'bob' },
    ]);
    expect(plan.merged).toEqual([{ into: b, identity: 'jane', from: [c, a] }]);
    expect(plan.untouched).toEqual([f]);
  });

  it('ties of createdAt go to the smaller id; an identity already in the format is not renamed', () => {
    const x = user('x', 'JANE', 1);
    const y = user('y', 'jane', 1);
    expect(planIdentityFormat('Login', [x, y])).toEqual({
      renamed: [{ user: x, to: 'jane' }],
      merged: [{ into: x, identity: 'jane', from: [y] }],
      untouched: [],
    });
    expect(planIdentityFormat('Login', [user('1', 'jane', 1), user('2', 'bob', 2)])).toEqual({ renamed: [], merged: [], untouched: [] });
  });
});
