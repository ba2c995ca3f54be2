import { RFC4226_SECRET, RFC4226_VECTORS, RFC6238_SEEDS, RFC6238_VECTORS } from '../test/rfc-vectors';
import { codeBytes, dynamicTruncate, hotpMatches, hotpValue, newScratch, nodeCryptoPlugin, writeCounter, writeHotp } from './hmac';

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
      expect(hotpValue('sha1', RFC4226_SECRET, counter, 6, Buffer.alloc(8))).toBe(Number(hotp));
      const scratch = newScratch(6);
      expect(writeHotp('sha1', RFC4226_SECRET, counter, 6, scratch).toString('latin1')).toBe(hotp);
      expect(hotpMatches('sha1', RFC4226_SECRET, counter, 6, Buffer.from(hotp), scratch)).toBe(true);
      expect(hotpMatches('sha1', RFC4226_SECRET, counter + 1, 6, Buffer.from(hotp), scratch)).toBe(false);
    },
  );

  it.each(RFC6238_VECTORS)('RFC 6238 T=$t (all three hashes, 8 digits)', ({ seconds, t, totp }) => {
    const step = Math.floor(seconds / 30);
    expect(writeCounter(step, Buffer.alloc(8)).toString('hex').toUpperCase()).toBe(t);
    const scratch = newScratch(8);
    expect(writeHotp('sha1', RFC6238_SEEDS.SHA1, step, 8, scratch).toString()).toBe(totp.SHA1);
    expect(writeHotp('sha256', RFC6238_SEEDS.SHA256, step, 8, scratch).toString()).toBe(totp.SHA256);
    expect(writeHotp('sha512', RFC6238_SEEDS.SHA512, step, 8, scratch).toString()).toBe(totp.SHA512);
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
