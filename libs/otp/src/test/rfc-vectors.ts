/**
 * Test vectors, copied from the standards (not computed by this library).
 * The only place they live in the repository.
 */
import type { OtpAlgorithm } from '../lib/types';

/** RFC 4226 Appendix D: ASCII "12345678901234567890". */
export const RFC4226_SECRET = Buffer.from('12345678901234567890', 'ascii');

/** RFC 4226 Appendix D, Tables 1 and 2: HMAC-SHA-1, truncated value, 6-digit HOTP. */
export const RFC4226_VECTORS: ReadonlyArray<{
  counter: number;
  hmac: string;
  truncatedHex: string;
  truncated: number;
  hotp: string;
}> = [
  {
    counter: 0,
    hmac: 'cc93cf18508d94934c64b65d8ba7667fb7cde4b0',
    truncatedHex: '4c93cf18',
    truncated: 1284755224,
    hotp: '755224',
  },
  {
    counter: 1,
    hmac: '75a48a19d4cbe100644e8ac1397eea747a2d33ab',
    truncatedHex: '41397eea',
    truncated: 1094287082,
    hotp: '287082',
  },
  {
    counter: 2,
    hmac: '0bacb7fa082fef30782211938bc1c5e70416ff44',
    truncatedHex: '82fef30',
    truncated: 137359152,
    hotp: '359152',
  },
  {
    counter: 3,
    hmac: '66c28227d03a2d5529262ff016a1e6ef76557ece',
    truncatedHex: '66ef7655',
    truncated: 1726969429,
    hotp: '969429',
  },
  {
    counter: 4,
    hmac: 'a904c900a64b35909874b33e61c5938a8e15ed1c',
    truncatedHex: '61c5938a',
    truncated: 1640338314,
    hotp: '338314',
  },
  {
    counter: 5,
    hmac: 'a37e783d7b7233c083d4f62926c7a25f238d0316',
    truncatedHex: '33c083d4',
    truncated: 868254676,
    hotp: '254676',
  },
  {
    counter: 6,
    hmac: 'bc9cd28561042c83f219324d3c607256c03272ae',
    truncatedHex: '7256c032',
    truncated: 1918287922,
    hotp: '287922',
  },
  {
    counter: 7,
    hmac: 'a4fb960c0bc06e1eabb804e5b397cdc4b45596fa',
    truncatedHex: '4e5b397',
    truncated: 82162583,
    hotp: '162583',
  },
  {
    counter: 8,
    hmac: '1b3c89f65e6c9e883012052823443f048b4332db',
    truncatedHex: '2823443f',
    truncated: 673399871,
    hotp: '399871',
  },
  {
    counter: 9,
    hmac: '1637409809a679dc698207310c8c7fc07290d9e5',
    truncatedHex: '2679dc69',
    truncated: 645520489,
    hotp: '520489',
  },
];

/**
 * RFC 6238 Appendix B seeds. The appendix text says "20 bytes" for all three, but
 * the reference implementation (and the table values) use a 20-byte seed for
 * HMAC-SHA1, 32 bytes for HMAC-SHA256 and 64 bytes for HMAC-SHA512 (errata 2866).
 */
export const RFC6238_SEEDS: Readonly<Record<OtpAlgorithm, Buffer>> = {
  SHA1: Buffer.from('12345678901234567890', 'ascii'),
  SHA256: Buffer.from('12345678901234567890123456789012', 'ascii'),
  SHA512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii'),
};

/** RFC 6238 Appendix B: T0 = 0, X = 30, 8 digits. */
export const RFC6238_VECTORS: ReadonlyArray<{
  seconds: number;
  utc: string;
  t: string;
  totp: Record<OtpAlgorithm, string>;
}> = [
  {
    seconds: 59,
    utc: '1970-01-01 00:00:59',
    t: '0000000000000001',
    totp: { SHA1: '94287082', SHA256: '46119246', SHA512: '90693936' },
  },
  {
    seconds: 1111111109,
    utc: '2005-03-18 01:58:29',
    t: '00000000023523EC',
    totp: { SHA1: '07081804', SHA256: '68084774', SHA512: '25091201' },
  },
  {
    seconds: 1111111111,
    utc: '2005-03-18 01:58:31',
    t: '00000000023523ED',
    totp: { SHA1: '14050471', SHA256: '67062674', SHA512: '99943326' },
  },
  {
    seconds: 1234567890,
    utc: '2009-02-13 23:31:30',
    t: '000000000273EF07',
    totp: { SHA1: '89005924', SHA256: '91819424', SHA512: '93441116' },
  },
  {
    seconds: 2000000000,
    utc: '2033-05-18 03:33:20',
    t: '0000000003F940AA',
    totp: { SHA1: '69279037', SHA256: '90698825', SHA512: '38618901' },
  },
  {
    seconds: 20000000000,
    utc: '2603-10-11 11:33:20',
    t: '0000000027BC86AA',
    totp: { SHA1: '65353130', SHA256: '77737706', SHA512: '47863826' },
  },
];

/** RFC 4648 §10 Base32 test vectors (with the padding the RFC shows). */
export const RFC4648_BASE32_VECTORS: ReadonlyArray<[string, string]> = [
  ['', ''],
  ['f', 'MY======'],
  ['fo', 'MZXQ===='],
  ['foo', 'MZXW6==='],
  ['foob', 'MZXW6YQ='],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI======'],
];
