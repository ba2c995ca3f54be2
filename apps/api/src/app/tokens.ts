/**
 * The injection tokens moved to config/injection-tokens.ts, below the features that inject them.
 * @deprecated import them from '../config/injection-tokens'; this re-export stays only while
 * apps/api/src/access/ and apps/api/src/tokens/ still import it from here.
 */
export { APP_CONFIG, CLOCK } from '../config/injection-tokens';
