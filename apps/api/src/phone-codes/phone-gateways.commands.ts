import { HttpGatewaySettings, InputFields, parseDestinationPrefix, parseHttpGatewaySettings, ValidationFailed } from '@twofold/domain';

/** `PUT /settings/sms-gateway`, `/settings/call-gateway`: an HTTP template gateway (libs/domain phone-gateways.ts). */
export function parseGatewayBody(body: unknown): HttpGatewaySettings {
  return parseHttpGatewaySettings(body);
}

/** At most this many destination prefixes per account. */
export const MAX_DESTINATION_PREFIXES = 50;

/** `PUT /settings/phone-destinations`: `allowedPrefixes`, an array of E.164 prefixes; empty: any destination. */
export function parseDestinationsBody(body: unknown): string[] {
  const raw = InputFields.ofBody(body).get('allowedPrefixes');
  if (!Array.isArray(raw)) throw new ValidationFailed('allowedPrefixes must be an array of E.164 prefixes such as "+7".');
  if (raw.length > MAX_DESTINATION_PREFIXES) throw new ValidationFailed(`At most ${MAX_DESTINATION_PREFIXES} prefixes can be sent.`);
  const prefixes = raw.map((item) => {
    const prefix = parseDestinationPrefix(item);
    if (!prefix) throw new ValidationFailed('Each prefix must be "+" and one to six digits, such as "+7".');
    return prefix;
  });
  return [...new Set(prefixes)];
}
