export function otp(): string {
  return 'otp';
}
