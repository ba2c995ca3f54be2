/**
 * When two identities are one user. Identities are compared by a key, not as written: compatibility
 * forms folded (NFKC: full-width `ｊａｎｅ`, the Kelvin sign `K`, ligatures, decomposed `é` all become
 * their plain letters), then every case folded (Unicode, not ASCII alone: `Élan` and `élan`, `STRASSE`
 * and `straße`), and trailing dots dropped (`jane.` is `jane`). The key is computed here, in one place,
 * and stored beside the identity: the database's own `lower()` folds only ASCII under the C locale, so
 * it cannot be the judge.
 */
export function identityKey(identity: string): string {
  // upper then lower folds the cases `toLowerCase` alone leaves apart (ß, final sigma, …); NFKC again
  // because case mapping can produce new compatibility forms
  const folded = identity.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  return folded.replace(/\.+$/u, '');
}

/**
 * Characters an identity may not hold: controls, invisible formatting (zero-width spaces and joiners,
 * the byte-order mark, soft hyphens), bidirectional overrides and isolates, other default-ignorable
 * code points (fillers that render as nothing), private-use and unassigned code points, and line or
 * paragraph separators. Each makes two identities that look the same on a screen and in the journal.
 */
const INVISIBLE_OR_BIDI = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

export function hasInvisibleOrBidiCharacter(identity: string): boolean {
  return INVISIBLE_OR_BIDI.test(identity);
}
