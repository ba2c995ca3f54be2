import { OtpError, OtpKeyError, type OtpKeyErrorCode } from './errors';
import { generateSecret, parseBase32Key, parseHexKey, toBase32 } from './keys';
import { RFC4648_BASE32_VECTORS, RFC6238_SEEDS } from '../test/rfc-vectors';
import { randomBytesFrom, randomInt, seededRandom } from '../test/prng';

/** Assert that `fn` throws an OtpKeyError with `code` whose message does not contain `secretText`. */
function expectKeyError(fn: () => unknown, code: OtpKeyErrorCode, secretText?: string): OtpKeyError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(OtpKeyError);
  expect(caught).toBeInstanceOf(OtpError);
  const error = caught as OtpKeyError;
  expect(error.code).toBe(code);
  expect(error.name).toBe('OtpKeyError');
  if (secretText !== undefined && secretText.length > 0) {
    expect(error.message.toLowerCase()).not.toContain(secretText.toLowerCase());
    // Not even an 8-character slice of it.
    for (let i = 0; i + 8 <= secretText.length; i++) {
      expect(error.message.toLowerCase()).not.toContain(secretText.slice(i, i + 8).toLowerCase());
    }
    expect(String(error.stack)).not.toContain(secretText);
  }
  return error;
}

describe('parseHexKey', () => {
  it('parses upper- and lower-case hex into the exact bytes', () => {
    expect(parseHexKey('3132333435363738393031323334353637383930')).toEqual(RFC6238_SEEDS.SHA1);
    expect(parseHexKey('00112233445566778899AABBCCDDEEFF')).toEqual(
      Buffer.from([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]),
    );
    expect(parseHexKey('ab'.repeat(64))).toEqual(Buffer.alloc(64, 0xab));
  });

  it('accepts exactly 16 to 64 bytes', () => {
    expect(parseHexKey('00'.repeat(16))).toHaveLength(16);
    expect(parseHexKey('00'.repeat(64))).toHaveLength(64);
    expectKeyError(() => parseHexKey('5a'.repeat(15)), 'KEY_TOO_SHORT', '5a'.repeat(15));
    expectKeyError(() => parseHexKey('5a'.repeat(65)), 'KEY_TOO_LONG', '5a'.repeat(65));
    expectKeyError(() => parseHexKey(''), 'KEY_TOO_SHORT');
  });

  it('refuses an odd number of digits', () => {
    const key = '0123456789abcdef0123456789abcdef0';
    expect(expectKeyError(() => parseHexKey(key), 'KEY_ODD_LENGTH', key).message).toBe('hex key has an odd number of digits');
  });

  it.each([
    ['a non-hex letter', '0123456789abcdef0123456789abcdeg'],
    ['a 0x prefix', '0x0123456789abcdef0123456789abcdef'],
    ['a space', '01234567 89abcdef0123456789abcdef'],
    ['a trailing newline', '0123456789abcdef0123456789abcdef\n'],
    ['a colon separator', '01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef'],
    ['a non-ASCII digit', '0123456789abcdef0123456789abcde٣'],
  ])('refuses %s', (_what, key) => {
    const error = expectKeyError(() => parseHexKey(key), 'KEY_NOT_HEX', key);
    expect(error.message).toBe('hex key contains a character that is not a hex digit');
  });

  it('refuses non-strings with KEY_INVALID_TYPE', () => {
    expectKeyError(() => parseHexKey(undefined as unknown as string), 'KEY_INVALID_TYPE');
    expectKeyError(() => parseHexKey(Buffer.alloc(20) as unknown as string), 'KEY_INVALID_TYPE');
  });
});

describe('toBase32 / parseBase32Key', () => {
  it.each(RFC4648_BASE32_VECTORS)('RFC 4648 §10: %j encodes to %j without the padding', (plain, encoded) => {
    expect(toBase32(Buffer.from(plain, 'ascii'))).toBe(encoded.replace(/=+$/, ''));
  });

  it('decodes a known authenticator secret', () => {
    // "12345678901234567890" in Base32, as printed by many authenticator guides.
    expect(toBase32(RFC6238_SEEDS.SHA1)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(parseBase32Key('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toEqual(RFC6238_SEEDS.SHA1);
    expect(parseBase32Key('gezdgnbvgy3tqojqgezdgnbvgy3tqojq')).toEqual(RFC6238_SEEDS.SHA1);
  });

  it('round-trips random keys of every accepted length (seeded)', () => {
    const rnd = seededRandom(0xba5e32);
    for (let n = 16; n <= 64; n++) {
      const key = randomBytesFrom(rnd, n);
      const text = toBase32(key);
      expect(text).toMatch(/^[A-Z2-7]+$/);
      expect(text).toHaveLength(Math.ceil((n * 8) / 5));
      const back = parseBase32Key(text);
      expect(Buffer.isBuffer(back)).toBe(true);
      expect(back).toEqual(key);
    }
  });

  it('tolerates correct trailing padding only', () => {
    const key = Buffer.alloc(16, 0x42); // 16 bytes: 26 characters, 6 padding
    const text = toBase32(key);
    expect(text).toHaveLength(26);
    expect(parseBase32Key(text + '======')).toEqual(key);
    expectKeyError(() => parseBase32Key(text + '==='), 'KEY_BASE32_BAD_LENGTH', text);
    expectKeyError(() => parseBase32Key(text + '=============='), 'KEY_BASE32_BAD_LENGTH', text);
    const k20 = toBase32(RFC6238_SEEDS.SHA1); // 32 characters: no padding needed
    expectKeyError(() => parseBase32Key(k20 + '========'), 'KEY_BASE32_BAD_LENGTH', k20);
    expectKeyError(() => parseBase32Key('GEZDGNBV=GY3TQOJQGEZDGNBVGY3TQOJQ'), 'KEY_NOT_BASE32', 'GEZDGNBVGY3TQOJQ');
  });

  it.each([
    ['a digit outside the alphabet (1)', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJ1'],
    ['a digit outside the alphabet (0)', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJ0'],
    ['a space', 'GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ'],
    ['a hyphen', 'GEZDGNBV-GY3TQOJQ-GEZDGNBV-GY3TQOJQ'],
    ['base64 characters', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJ+'],
  ])('refuses %s with KEY_NOT_BASE32 and no key material in the message', (_what, key) => {
    expectKeyError(() => parseBase32Key(key), 'KEY_NOT_BASE32', key);
  });

  it('refuses non-zero trailing bits (non-canonical encodings)', () => {
    // 16 bytes = 26 chars; the last character carries 3 data bits and 2 zero bits.
    const canonical = toBase32(Buffer.alloc(16, 0));
    expect(canonical).toBe('A'.repeat(26));
    const nonCanonical = 'A'.repeat(25) + 'B'; // B = 00001: a trailing bit set
    const error = expectKeyError(() => parseBase32Key(nonCanonical), 'KEY_NOT_BASE32', nonCanonical);
    expect(error.message).toBe('Base32 key is not canonical (non-zero trailing bits)');
  });

  it('refuses impossible lengths, too short and too long keys', () => {
    expectKeyError(() => parseBase32Key('A'.repeat(27)), 'KEY_BASE32_BAD_LENGTH'); // 27 mod 8 = 3
    expectKeyError(() => parseBase32Key('A'.repeat(33)), 'KEY_BASE32_BAD_LENGTH'); // 33 mod 8 = 1
    expectKeyError(() => parseBase32Key('A'.repeat(30)), 'KEY_BASE32_BAD_LENGTH'); // 30 mod 8 = 6
    const short = toBase32(Buffer.alloc(15, 7));
    expectKeyError(() => parseBase32Key(short), 'KEY_BASE32_TOO_SHORT', short);
    expectKeyError(() => parseBase32Key(''), 'KEY_BASE32_TOO_SHORT');
    const long = toBase32(Buffer.alloc(65, 7));
    expectKeyError(() => parseBase32Key(long), 'KEY_BASE32_TOO_LONG', long);
    expect(parseBase32Key(toBase32(Buffer.alloc(64, 7)))).toHaveLength(64);
    expectKeyError(() => parseBase32Key(42 as unknown as string), 'KEY_INVALID_TYPE');
    expectKeyError(() => toBase32('AAAA' as unknown as Buffer), 'KEY_INVALID_TYPE');
  });
});

describe('generateSecret', () => {
  it('returns 20 random bytes by default', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(Buffer.isBuffer(a)).toBe(true);
    expect(a).toHaveLength(20);
    expect(a.equals(b)).toBe(false);
  });

  it('honours bytes within 16..64 and refuses anything else', () => {
    expect(generateSecret({ bytes: 16 })).toHaveLength(16);
    expect(generateSecret({ bytes: 64 })).toHaveLength(64);
    for (const bytes of [15, 65, 0, -1, 20.5, NaN]) {
      expect(() => generateSecret({ bytes })).toThrow(new RangeError('bytes must be an integer from 16 to 64'));
    }
  });

  it('produces keys that parse back through Base32 and hex (seeded lengths)', () => {
    const rnd = seededRandom(7);
    for (let i = 0; i < 20; i++) {
      const secret = generateSecret({ bytes: randomInt(rnd, 16, 64) });
      expect(parseBase32Key(toBase32(secret))).toEqual(secret);
      expect(parseHexKey(secret.toString('hex'))).toEqual(secret);
    }
  });
});
