import { authenticationMethodsOfGrant, refreshRefusal, RecordedGrant } from './token-refresh';

const now = new Date('2026-05-20T10:00:00Z');
const grant = (changes: Partial<RecordedGrant> = {}): RecordedGrant => ({
  user: { identity: 'jane', isLocked: false },
  requestIdentity: 'jane',
  bypassed: false,
  tokenExpiresAt: new Date(now.getTime() + 60_000),
  ...changes,
});

describe('refreshing a token proves a recorded grant', () => {
  it('refreshes a live grant of the same user, named as the request or as the user is called now, in any case', () => {
    expect(refreshRefusal(grant(), 'jane', now)).toBeNull();
    expect(refreshRefusal(grant(), 'JANE', now)).toBeNull();
    expect(refreshRefusal(grant({ user: { identity: 'jane.doe', isLocked: false } }), 'jane.doe', now)).toBeNull();
    expect(refreshRefusal(grant({ user: { identity: 'jane.doe', isLocked: false } }), 'jane', now)).toBeNull();
  });

  it('refuses another subject than the grant’s, and a grant whose newest token has expired', () => {
    expect(refreshRefusal(grant(), 'root', now)).toBe('notIssued');
    expect(refreshRefusal(grant({ tokenExpiresAt: now }), 'jane', now)).toBe('notIssued');
  });

  it('refuses a grant whose user is gone or locked since', () => {
    expect(refreshRefusal(grant({ user: null }), 'jane', now)).toBe('userGone');
    expect(refreshRefusal(grant({ user: { identity: 'jane', isLocked: true } }), 'jane', now)).toBe('userLocked');
  });

  it('keeps how the grant authenticated the user', () => {
    expect(authenticationMethodsOfGrant({ bypassed: true })).toEqual(['bypass']);
    expect(authenticationMethodsOfGrant({ bypassed: false })).toEqual(['otp']);
    expect(authenticationMethodsOfGrant({ bypassed: false, authenticator: 'BypassCode' })).toEqual(['bypass_code']);
    expect(authenticationMethodsOfGrant({ bypassed: false, authenticator: 'RecoveryCode' })).toEqual(['recovery_code']);
  });
});
