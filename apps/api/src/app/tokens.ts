/** Injection tokens for values that are interfaces or plain objects, not classes. */
export const CLOCK = 'twofold:clock';
export const APP_CONFIG = 'twofold:app-config';
