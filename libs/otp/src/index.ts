export { OtpError, OtpKeyError, OtpUriError, MAX_URI_LENGTH } from './lib/errors';
export type { OtpKeyErrorCode, OtpUriErrorCode } from './lib/errors';
export {
  OTP_ALGORITHMS,
  OTP_DIGITS,
  MIN_KEY_BYTES,
  MAX_KEY_BYTES,
  MAX_TOTP_WINDOW,
  MAX_DRIFT_STEPS,
  MAX_HOTP_LOOK_AHEAD,
  MAX_RESYNC_WINDOW,
  MIN_STEP_SECONDS,
  MAX_STEP_SECONDS,
} from './lib/types';
export type { OtpAlgorithm, OtpDigits } from './lib/types';
export { parseHexKey, toBase32, parseBase32Key, generateSecret } from './lib/keys';
export type { GenerateSecretOptions } from './lib/keys';
export { generateHotp, verifyHotp, resyncHotp } from './lib/hotp';
export type {
  HotpOptions,
  GenerateHotpOptions,
  VerifyHotpOptions,
  VerifyHotpResult,
  ResyncHotpOptions,
  ResyncHotpResult,
} from './lib/hotp';
export { generateTotp, verifyTotp, totpTimeStep } from './lib/totp';
export type { TotpClockOptions, GenerateTotpOptions, VerifyTotpOptions, VerifyTotpResult } from './lib/totp';
export { generateOtpauthUri, parseOtpauthUri } from './lib/otpauth-uri';
export type { OtpauthUriOptions, OtpauthTotpOptions, OtpauthHotpOptions, OtpauthUri } from './lib/otpauth-uri';
export { nodeCryptoPlugin } from './lib/hmac';
