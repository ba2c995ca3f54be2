/** local@domain.tld, no spaces, one @, a dot in the domain; the RFC's corner cases are not worth accepting. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
