import { describe, expect, it } from 'vitest';

/*
 * The wording docs/glossary.md prescribes (issue 30), checked on every text the clinic reads: the German
 * catalogues (SPA, server messages, e-mails, the PDF report) and the German legal documents; a few English
 * rules at the end. src/lib/locales.test.ts checks the catalogues' shape (keys, placeholders, translation).
 */
type Tree = { [key: string]: string | Tree };

const catalogues = import.meta.glob<Tree>('../../locales/*/*.json', { eager: true, import: 'default' });
const legalDocuments = import.meta.glob<string>('../../locales/*/legal/*.md', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** Flattens nested keys to "a.b.c" → value. */
function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[name, value] as [string, string]] : flatten(value, name);
  });
}

type Text = { where: string; namespace: string; key: string; value: string };

/** Every value of locales/<language>/*.json, as "<namespace>:<key>". */
function textsOf(language: 'en' | 'de'): Text[] {
  const folder = `../../locales/${language}/`;
  return Object.entries(catalogues)
    .filter(([file]) => file.startsWith(folder))
    .flatMap(([file, tree]) => {
      const namespace = file.slice(folder.length).replace(/\.json$/, '');
      return flatten(tree).map(([key, value]) => ({ where: `${namespace}:${key}`, namespace, key, value }));
    });
}

const german = textsOf('de');
const english = new Map(textsOf('en').map((text) => [text.where, text.value]));
const germanLegal: Text[] = Object.entries(legalDocuments)
  .filter(([file]) => file.startsWith('../../locales/de/legal/'))
  .map(([file, value]) => ({ where: file.slice('../../locales/de/'.length), namespace: 'legal', key: file, value }));

const offending = (texts: Text[], pattern: RegExp): string[] =>
  texts.filter(({ value }) => pattern.test(value)).map(({ where }) => where);

describe('German terms (docs/glossary.md)', () => {
  it.each([
    ['Laserdosis', /Laserdosis/, 'subvisuelle Laserleistung (a dose is not in mW)'],
    ['subliminal', /subliminal/i, 'subvisuell'],
    ['aus dem Archiv', /aus dem Archiv/i, 'Archivierung aufheben'],
    ['Sehnervenkopf', /Sehnervenkopf/, 'Papille'],
    ['An error occurred', /An error occurred/i, 'Ein Fehler ist aufgetreten.'],
  ])('never says %s (but %s)', (_word, pattern) => {
    expect(offending([...german, ...germanLegal], pattern)).toEqual([]);
  });
});

describe('Patient in the accusative and dative singular', () => {
  // Nominative, where "1 Patient" is right: a count on its own and "1 Patient ausgewählt".
  const NOMINATIVE = new Set(['accessLog:patients_one', 'adminPatients:selection.count_one']);
  const singular = german.filter(({ key, where }) => key.endsWith('_one') && !NOMINATIVE.has(where));

  it('says "1 Patienten archivieren", not "1 Patient archivieren"', () => {
    expect(offending(singular, /(?:^|[\s(„])(?:1|\{\{count\}\}) Patient\b(?!en|in)/)).toEqual([]);
  });

  it('says "Patienten archivieren", not "Patient archivieren"', () => {
    expect(offending(singular, /^Patient (archivieren|wiederherstellen|endgültig)/)).toEqual([]);
  });

  it('keeps the nominative exceptions nominative', () => {
    const kept = german.filter(({ where }) => NOMINATIVE.has(where)).map(({ value }) => value);
    expect(kept).toHaveLength(NOMINATIVE.size);
    for (const value of kept) expect(value).toMatch(/\{\{count\}\} Patient( ausgewählt)?$/);
  });
});

/*
 * "Sitzung" is the treatment session only; being signed in is "Anmeldung" / "angemeldet" / "abmelden".
 * A German text fails when it says Sitzung and is about signing in: by its own words, by the English text
 * of the same key, or by its namespace.
 */
describe('"Sitzung" never means being signed in', () => {
  const SITZUNG = /Sitzung/i;
  // Words of signing in, and a session that "ends" (a treatment session is locked or deleted, it never ends).
  // Not "Passwort" alone: "verarbeitete Sitzungen … und Passworterinnerungen" lists two different things.
  const SIGN_IN_GERMAN =
    /an(?:ge|zu)?meld|ab(?:ge|zu)?meld|Inaktivität|Zeitüberschreitung|Token|zwei(?:-|te[mnr]?\s)Faktor|Sitzung\w*\s(?:\S+\s){0,3}?(?:enden|endet|beendet|abgelaufen)\b|\b(?:enden|endet|beendet)\s(?:\S+\s){0,3}?Sitzung/i;
  // "sign off" / "signed off" is the physician's approval of a plan, not a sign-in.
  const SIGN_IN_ENGLISH =
    /\bsign(?:s|ed|ing)?[ -]?(?:in|out)\b|\blog(?:s|ged|ging)?[ -]?(?:in|out|off)\b|\bidle\b|\bsessions?\s(?:\S+\s){0,2}?(?:end|ends|ended)\b/i;
  const SIGN_IN_NAMESPACES = new Set(['auth', 'securitySettings', 'twoFactor']);

  it('in a German text about signing in', () => {
    expect(german.filter(({ value }) => SITZUNG.test(value) && SIGN_IN_GERMAN.test(value)).map(({ where }) => where)).toEqual([]);
  });

  it('where the English text of the same key is about signing in', () => {
    expect(
      german.filter(({ where, value }) => SITZUNG.test(value) && SIGN_IN_ENGLISH.test(english.get(where) ?? '')).map(({ where }) => where),
    ).toEqual([]);
  });

  it('in the sign-in and security catalogues at all', () => {
    expect(offending(german.filter(({ namespace }) => SIGN_IN_NAMESPACES.has(namespace)), SITZUNG)).toEqual([]);
  });

  it('in a sentence of a legal document about signing in', () => {
    const sentences = germanLegal.flatMap(({ where, value }) =>
      value.split(/(?<=[.:;!?])\s+|\n+/).map((sentence) => ({ where, namespace: 'legal', key: where, value: sentence })),
    );
    expect(sentences.filter(({ value }) => SITZUNG.test(value) && SIGN_IN_GERMAN.test(value)).map(({ where, value }) => `${where}: ${value}`)).toEqual([]);
  });

  it('finds the wording it guards against (self-check)', () => {
    const signIn = (value: string) => SITZUNG.test(value) && SIGN_IN_GERMAN.test(value);
    expect(signIn('Alle Sitzungen des Kontos wurden abgemeldet.')).toBe(true);
    expect(signIn('Nicht rückgängig zu machen: Ihre laufenden Sitzungen enden.')).toBe(true);
    expect(signIn('Ihre Sitzung ist beendet.')).toBe(true);
    expect(signIn('Mit der Deaktivierung enden alle Sitzungen dieser Person.')).toBe(true);
    expect(signIn('Diese Sitzung wurde gesperrt, weil ein Problem gemeldet wurde.')).toBe(false);
    expect(signIn('Was Sie betrifft: verarbeitete Sitzungen, Löschanträge und Passworterinnerungen.')).toBe(false);
    expect(SIGN_IN_ENGLISH.test('Cannot be undone: their sessions end now.')).toBe(true);
    expect(SIGN_IN_ENGLISH.test('Your session has ended. Please sign in again.')).toBe(true);
    expect(SIGN_IN_ENGLISH.test('The parameter set could not be prepared, and the plan is back at sign-off.')).toBe(false);
    expect(SIGN_IN_ENGLISH.test('Session {{number}} of {{date}} · signed off')).toBe(false);
  });
});

describe('English terms (docs/glossary.md)', () => {
  const englishTexts: Text[] = [...english].map(([where, value]) => ({ where, namespace: where.split(':')[0] ?? '', key: where, value }));

  it.each([
    ['laser dose', /laser dose/i, 'sub-visible laser power'],
    ['(sub-visible)', /\(sub-visible\)/i, 'sub-visible laser power'],
    ['e-mail', /\be-mails?\b/i, 'email'],
  ])('never says %s (but %s)', (_word, pattern) => {
    expect(offending(englishTexts, pattern)).toEqual([]);
  });
});
