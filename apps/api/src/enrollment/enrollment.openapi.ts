import { REFUSALS } from '../http/input-guard';

/** `$ACCESS_URL/enroll/<token>`: the enrollment page of a user's link or an administrator's invitation; the token is the key. */
export const ENROLLMENT_PAGE_DOCS = {
  telegram: {
    summary: "The enrollment page's check of its Telegram link (JSON)",
    statuses: {
      200: '`{"bound": true}` once the bot bound the user\'s chat through the link, else `{"bound": false}`',
      404: 'unknown link',
    },
  },
  mobileApp: {
    summary: "The enrollment page's check of its Twofold Authenticator enrollment token (JSON)",
    description:
      'The page names the token by its id (`?token=`), never by the token itself. Another user\'s token, or one that enrolled nothing yet, is `{"enrolled": false}`.',
    statuses: {
      200: '`{"enrolled": true}` once the app registered a device with the token the page shows, else `{"enrolled": false}`',
      404: 'unknown link',
    },
  },
  show: {
    summary: 'The enrollment page (HTML): QR code, Base32 secret, otpauth:// link and the code form',
    statuses: { 200: 'the enrollment form', 404: 'unknown link', 410: 'expired, used or revoked link' },
  },
  submit: {
    summary: 'The first code from the new authenticator app; completes the enrollment',
    form: {
      type: 'object' as const,
      required: ['code'],
      properties: { code: { type: 'string' as const, description: 'the code the app shows' } },
    },
    errors: { 400: REFUSALS.unstorable },
    statuses: { 200: 'enrolled, or the form again after a wrong code', 404: 'unknown link', 410: 'expired, used or revoked link' },
  },
};
