/**
 * Injection tokens for values that are interfaces or plain objects, not classes: the clock every rule
 * of time reads, and the application's settings. They sit below every feature, which injects them;
 * the composition root (app/) provides them.
 */
export const CLOCK = 'twofold:clock';
export const APP_CONFIG = 'twofold:app-config';
/** how retries wait (config/sleep.ts) */
export const SLEEP = 'twofold:sleep';
