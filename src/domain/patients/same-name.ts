// When a typed name is the same name as a stored one, for the duplicate check of a new patient (the contract's
// LikelyDuplicatePatientError, issue 26). A name typed at the desk and one typed from a referral letter
// differ in case, spacing, accents and in how an umlaut is written; none of these makes another person.

const COMBINING_MARKS = /\p{M}/gu;
const UMLAUTS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue' };

/** Trimmed, inner whitespace as one space, lower case, ß as ss; composed (NFC), so "ü" is one character. */
function folded(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase().replace(/ß/g, 'ss');
}

const withoutAccents = (name: string) => name.normalize('NFD').replace(COMBINING_MARKS, '').normalize('NFC');

/**
 * The two forms a name is compared in: accents removed ("Müller" → "muller", "José" → "jose") and German
 * umlauts written out before that ("Müller" → "mueller"). Letters Unicode does not decompose (ø, ł, æ)
 * stay as they are.
 */
export function nameForms(name: string): { plain: string; spelledOut: string } {
  const base = folded(name);
  return { plain: withoutAccents(base), spelledOut: withoutAccents(base.replace(/[äöü]/g, (umlaut) => UMLAUTS[umlaut]!)) };
}

/** Whether two names are the same name: equal in either form of `nameForms`. */
export function isSameName(a: string, b: string): boolean {
  const first = nameForms(a);
  const second = nameForms(b);
  return first.plain === second.plain || first.spelledOut === second.spelledOut;
}
