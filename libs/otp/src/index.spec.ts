import * as otp from './index';

describe('public API (src/index.ts)', () => {
  it('exports exactly the documented values', () => {
    expect(Object.keys(otp).sort()).toEqual(
      [
        'MAX_DRIFT_STEPS',
        'MAX_HOTP_LOOK_AHEAD',
        'MAX_KEY_BYTES',
        'MAX_RESYNC_WINDOW',
        'MAX_STEP_SECONDS',
        'MAX_TOTP_WINDOW',
        'MAX_URI_LENGTH',
        'MIN_KEY_BYTES',
        'MIN_STEP_SECONDS',
        'OTP_ALGORITHMS',
        'OTP_DIGITS',
        'OtpError',
        'OtpKeyError',
        'OtpUriError',
        'generateHotp',
        'generateOtpauthUri',
        'generateSecret',
        'generateTotp',
        'nodeCryptoPlugin',
        'parseBase32Key',
        'parseHexKey',
        'parseOtpauthUri',
        'resyncHotp',
        'toBase32',
        'totpTimeStep',
        'verifyHotp',
        'verifyTotp',
      ].sort(),
    );
    expect([
      otp.MIN_KEY_BYTES,
      otp.MAX_KEY_BYTES,
      otp.MAX_TOTP_WINDOW,
      otp.MAX_HOTP_LOOK_AHEAD,
      otp.MAX_DRIFT_STEPS,
      otp.MAX_RESYNC_WINDOW,
    ]).toEqual([16, 64, 10, 100, 100, 1000]);
  });

  it('works end to end: enrol with a URI, verify a TOTP, refuse its replay', () => {
    const secret = otp.generateSecret();
    const uri = otp.generateOtpauthUri({
      type: 'totp',
      secret,
      issuer: 'Twofold',
      account: 'ada@example.org',
    });
    const parsed = otp.parseOtpauthUri(uri);
    expect(parsed.secret).toEqual(secret);
    const time = 1_750_000_000_000;
    const code = otp.generateTotp({ secret: parsed.secret, time });
    const first = otp.verifyTotp({ secret, code, time });
    expect(first).toEqual({
      valid: true,
      timeStep: otp.totpTimeStep({ time }),
      delta: 0,
    });
    expect(
      otp.verifyTotp({
        secret,
        code,
        time,
        afterTimeStep: first.valid ? first.timeStep : -1,
      }),
    ).toEqual({ valid: false });
  });
});
