import { RFC4226_SECRET, RFC4226_VECTORS, RFC6238_SEEDS, RFC6238_VECTORS } from '../test/rfc-vectors';
import { codeBytes, dynamicTruncate, hmacKey, hotpMatches, hotpValue, newScratch, nodeCryptoPlugin, writeCounter, writeHotp } from './hmac';
import { verifyHotp } from './hotp';
import { generateTotp, verifyTotp } from './totp';

describe('nodeCryptoPlugin (otplib CryptoPlugin on node:crypto)', () => {
  it.each(RFC4226_VECTORS)('HMAC-SHA-1 of counter $counter is RFC 4226 Table 1', ({ counter, hmac }) => {
    const mac = nodeCryptoPlugin.hmac('sha1', RFC4226_SECRET, writeCounter(counter, Buffer.alloc(8)));
    expect(Buffer.from(mac as Uint8Array).toString('hex')).toBe(hmac);
  });

  it('accepts the algorithm spellings otplib requires and refuses others', () => {
    const data = Buffer.alloc(8);
    const sha256 = Buffer.from(nodeCryptoPlugin.hmac('sha256', RFC6238_SEEDS.SHA256, data) as Uint8Array);
    expect(sha256).toHaveLength(32);
    for (const spelling of ['SHA256', 'Sha256', 'SHA-256', 'sha_256']) {
      expect(Buffer.from(nodeCryptoPlugin.hmac(spelling as 'sha256', RFC6238_SEEDS.SHA256, data) as Uint8Array)).toEqual(sha256);
    }
    expect(() => nodeCryptoPlugin.hmac('md5' as 'sha1', RFC4226_SECRET, data)).toThrow(RangeError);
  });

  it('compares in constant time, false on different lengths', () => {
    expect(nodeCryptoPlugin.constantTimeEqual('123456', '123456')).toBe(true);
    expect(nodeCryptoPlugin.constantTimeEqual('123456', '123457')).toBe(false);
    expect(nodeCryptoPlugin.constantTimeEqual('123456', '1234567')).toBe(false);
    expect(nodeCryptoPlugin.constantTimeEqual(Buffer.from('ab'), new Uint8Array([97, 98]))).toBe(true);
    expect(nodeCryptoPlugin.randomBytes(24)).toHaveLength(24);
  });
});

describe('fast HOTP path used by the verifiers', () => {
  it.each(RFC4226_VECTORS)(
    'counter $counter: truncation and code are RFC 4226 Table 2',
    ({ counter, hmac, truncatedHex, truncated, hotp }) => {
      expect(dynamicTruncate(Buffer.from(hmac, 'hex'))).toBe(truncated);
      expect(truncated).toBe(parseInt(truncatedHex, 16));
      expect(hotpValue('sha1', hmacKey(RFC4226_SECRET), counter, 6, Buffer.alloc(8))).toBe(Number(hotp));
      const scratch = newScratch(6);
      expect(writeHotp('sha1', hmacKey(RFC4226_SECRET), counter, 6, scratch).toString('latin1')).toBe(hotp);
      expect(hotpMatches('sha1', hmacKey(RFC4226_SECRET), counter, 6, Buffer.from(hotp), scratch)).toBe(true);
      expect(hotpMatches('sha1', hmacKey(RFC4226_SECRET), counter + 1, 6, Buffer.from(hotp), scratch)).toBe(false);
    },
  );

  it.each(RFC6238_VECTORS)('RFC 6238 T=$t (all three hashes, 8 digits)', ({ seconds, t, totp }) => {
    const step = Math.floor(seconds / 30);
    expect(writeCounter(step, Buffer.alloc(8)).toString('hex').toUpperCase()).toBe(t);
    const scratch = newScratch(8);
    expect(writeHotp('sha1', hmacKey(RFC6238_SEEDS.SHA1), step, 8, scratch).toString()).toBe(totp.SHA1);
    expect(writeHotp('sha256', hmacKey(RFC6238_SEEDS.SHA256), step, 8, scratch).toString()).toBe(totp.SHA256);
    expect(writeHotp('sha512', hmacKey(RFC6238_SEEDS.SHA512), step, 8, scratch).toString()).toBe(totp.SHA512);
  });

  it('writes counters above 2^32 big-endian over 8 bytes', () => {
    expect(writeCounter(0x0123456789abcd, Buffer.alloc(8)).toString('hex')).toBe('000123456789abcd');
    expect(writeCounter(Number.MAX_SAFE_INTEGER, Buffer.alloc(8)).toString('hex')).toBe('001fffffffffffff');
  });

  it('accepts only codes of exactly `digits` ASCII digits', () => {
    expect(codeBytes('012345', 6)).toEqual(Buffer.from('012345'));
    expect(codeBytes('12345678', 8)).toEqual(Buffer.from('12345678'));
    for (const bad of ['12345', '1234567', '12345a', ' 12345', '12345\n', '１２３４５６', '+12345', '-12345', '1e5000', '']) {
      expect(codeBytes(bad, 6)).toBeNull();
    }
    expect(codeBytes(123456, 6)).toBeNull();
    expect(codeBytes(undefined, 6)).toBeNull();
    expect(codeBytes(null, 6)).toBeNull();
  });
});

describe('the key of a verification', () => {
  // the module object itself (an `import * as` copy's properties cannot be spied on)
  const crypto: typeof import('node:crypto') = jest.requireActual('node:crypto');
  // Node 24 spends about 10 µs turning a byte key into a key object in every createHmac: a
  // verification does it once (hmacKey), not once per candidate code
  it('is made into a key object once, and every HMAC of the verification is keyed with it', () => {
    const keyObjects = jest.spyOn(crypto, 'createSecretKey');
    const hmacs = jest.spyOn(crypto, 'createHmac');
    try {
      const ninth = RFC4226_VECTORS[9].hotp;
      expect(verifyHotp({ secret: RFC4226_SECRET, counter: 0, code: ninth, lookAhead: 10 })).toEqual({ valid: true, counter: 9, delta: 9 });
      expect(keyObjects).toHaveBeenCalledTimes(1);
      expect(hmacs).toHaveBeenCalledTimes(10);
      const time = 59_000; // step 1 of 30 s
      const totp = generateTotp({ secret: RFC4226_SECRET, time });
      keyObjects.mockClear();
      hmacs.mockClear();
      expect(verifyTotp({ secret: RFC4226_SECRET, time: time + 30_000, code: totp, window: 1 })).toMatchObject({ valid: true, delta: -1 });
      expect(keyObjects).toHaveBeenCalledTimes(1);
      expect(hmacs).toHaveBeenCalledTimes(2);
      for (const [, key] of hmacs.mock.calls) expect(key).toBeInstanceOf(crypto.KeyObject);
      // a malformed code costs nothing
      keyObjects.mockClear();
      expect(verifyHotp({ secret: RFC4226_SECRET, counter: 0, code: '12345x' })).toEqual({ valid: false });
      expect(keyObjects).not.toHaveBeenCalled();
    } finally {
      keyObjects.mockRestore();
      hmacs.mockRestore();
    }
  });
});
