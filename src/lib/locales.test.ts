import { describe, expect, it } from 'vitest';

/*
 * The catalogues in locales/: English is the key source, German must match it file for file, key for key
 * and placeholder for placeholder, and must really be translated.
 */
const LANGUAGES = ['en', 'de'] as const;

type Tree = { [key: string]: string | Tree };

// Every catalogue on disk, found by Vite's glob (not the list src/lib/i18n.ts bundles), keyed by path.
const catalogues = import.meta.glob<Tree>('../../locales/*/*.json', { eager: true, import: 'default' });
// The legal and info documents the operator replaces (Markdown, loaded by src/features/legal).
const legalDocuments = import.meta.glob<string>('../../locales/*/legal/*.md', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/**
 * German values that may equal the English ones, as "<file>:<key>": names, and words that are the same in
 * both languages.
 */
const SAME_IN_BOTH = new Set([
  'common:appName', // product name
  'common:language.en', // each language names itself
  'common:language.de',
  'staff:filters.status', // "Status" is German too
  'staff:columns.status',
  'securitySettings:strength.standard.name', // "Standard" is German too
  'adminPatients:columns.patient', // "Patient" is German too
  'auth:approveAccount.name',
  'common:pageTitle', // "{{page}} – Macula Planner"
  'patients:form.optional', // "(optional)" is German too
  'patientList:patientName', // "{{secondName}}, {{name}}" in both
  'patientCard:title', // the patient's name
  'patientCard:comparison.parameter', // "Parameter" is German too
  'patientCard:marksDialog.roles.fundus', // "Fundus" is German too
  'marks:figures.length', // "{{um}} µm"
  'marks:figures.diameter', // "Ø {{um}} µm"
  'marks:figures.area', // "{{value}} mm²"
  'marks:item', // "{{number}}. {{label}}"
  'marks:byWhom', // "{{name}}, {{date}}"
  'api:plan.pattern.hexagonal', // "hexagonal" is German too
  'api:annotation_label.default.drusen', // "Drusen" is German too
  'planning:grid.patterns.hexagonal',
  'planning:viewer.zoom', // "Zoom {{value}} %"
  'planning:viewer.scaleBar', // "{{value}} µm"
  'planning:viewer.scaleBarEstimated', // "≈{{value}} µm"
  'planning:zones.radius', // "Radius" is German too
  'planning:summary.spots', // "Spots" is how German laser clinics say it
  'planning:summary.faz', // abbreviations clinicians use in both languages
  'planning:summary.onh',
  'planning:parameterSet.sha256',
  'planning:hotkeys.list.help.keys', // keys: "?", "Tab", "0", "R"
  'planning:hotkeys.list.tab.keys',
  'planning:hotkeys.list.fit.keys',
  'planning:hotkeys.list.redFree.keys',
  'planning:history.system', // "System" is German too
  'planning:transfer.title', // "Laser" is German too
  'report:delivery.device',
  'devices:filters.online', // "Online" and "Offline" are German too
  'devices:filters.offline',
  'devices:status.online',
  'devices:status.offline',
  'accessLog:device', // "Laser {{deviceId}}": the device's ID after a word that is German too
  'notifications:settings.system', // "System" is German too
  'report:patient.name', // "Name" is German too
  'report:image.legend.fovea',
  'report:laser.ringValue', // "{{inner}}–{{outer}} µm"
  'report:laser.patterns.hexagonal',
  'report:power.count', // "Spots", as in planning:summary.spots
  'report:signOff.sha256',
  'report:marks.circle', // "Ø {{diameter}} µm{{dd}}, {{area}} mm²"
]);

/** The files of `folder` (e.g. "en/" or "de/legal/") among `found`, by name. */
const filesIn = (found: Record<string, unknown>, folder: string): string[] =>
  Object.keys(found)
    .filter((file) => file.startsWith(`../../locales/${folder}`))
    .map((file) => file.slice(`../../locales/${folder}`.length))
    .sort();

const filesOf = (language: string): string[] => filesIn(catalogues, `${language}/`);

const read = (language: string, file: string): Tree => catalogues[`../../locales/${language}/${file}`] ?? {};

/** Flattens nested keys to "a.b.c" → value. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(name, value);
    else for (const [k, v] of flatten(value, name)) entries.set(k, v);
  }
  return entries;
}

const placeholders = (value: string) => [...value.matchAll(/{{\s*([^}\s,]+)[^}]*}}/g)].map((m) => m[1]).sort();

const files = filesOf('en');

describe('locales', () => {
  it('has the same files in every language', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const language of LANGUAGES) expect(filesOf(language)).toEqual(files);
  });

  describe.each(files)('%s', (file) => {
    const en = flatten(read('en', file));
    const de = flatten(read('de', file));
    const namespace = file.replace(/\.json$/, '');

    it('has the same keys in German as in English', () => {
      expect([...de.keys()].sort()).toEqual([...en.keys()].sort());
    });

    it('has only non-empty strings as values', () => {
      for (const [key, value] of [...en, ...de]) expect(value.trim(), key).not.toBe('');
    });

    it('uses the same {{placeholders}} per key', () => {
      for (const [key, value] of en) expect(placeholders(de.get(key) ?? ''), key).toEqual(placeholders(value));
    });

    it('is translated: no German value equals the English one unless allowed', () => {
      const untranslated = [...en]
        .filter(([key, value]) => de.get(key) === value && !SAME_IN_BOTH.has(`${namespace}:${key}`))
        .map(([key]) => `${namespace}:${key}`);
      expect(untranslated).toEqual([]);
    });
  });

  it('lists no allowed duplicate that is not one', () => {
    const stale = [...SAME_IN_BOTH].filter((entry) => {
      const [namespace, key] = entry.split(':');
      const file = `${namespace}.json`;
      if (!files.includes(file)) return true;
      const value = flatten(read('en', file)).get(key);
      return value === undefined || flatten(read('de', file)).get(key) !== value;
    });
    expect(stale).toEqual([]);
  });
});

describe('legal documents (locales/<language>/legal/*.md)', () => {
  const documents = filesIn(legalDocuments, 'en/legal/');
  const text = (language: string, document: string) => legalDocuments[`../../locales/${language}/legal/${document}`];

  it('has every document in English and in German', () => {
    expect(documents.length).toBeGreaterThan(0);
    for (const language of LANGUAGES) expect(filesIn(legalDocuments, `${language}/legal/`)).toEqual(documents);
  });

  describe.each(documents)('%s', (document) => {
    it.each(LANGUAGES)('starts with its one "# " heading (the page\'s h1) in %s', (language) => {
      const lines = text(language, document).split('\n');
      expect(lines[0]).toMatch(/^# \S/);
      expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
    });

    it('is translated: no heading or sentence of the English text is left in the German one', () => {
      const english = new Set(text('en', document).split('\n'));
      const copied = text('de', document)
        .split('\n')
        .filter((line) => english.has(line) && (line.startsWith('# ') || line.length > 40));
      expect(copied).toEqual([]);
    });
  });
});

/*
 * How a German clinic writes: formal "Sie" throughout (also in e-mail salutations), one word for one thing,
 * German words where clinics use them. Each rule names a wording that once slipped in.
 */
describe('German wording (locales/de)', () => {
  const germanTexts = [
    ...filesOf('de').flatMap((file) => [...flatten(read('de', file))].map(([key, value]) => [`${file}:${key}`, value])),
    ...filesIn(legalDocuments, 'de/legal/').map((file) => [`legal/${file}`, legalDocuments[`../../locales/de/legal/${file}`]]),
  ];
  const offending = (pattern: RegExp) => germanTexts.filter(([, value]) => pattern.test(value)).map(([where]) => where);

  it('addresses the reader formally: no "du", "dein", "Hallo"', () => {
    expect(offending(/\b(du|dich|dir|dein\w*|euch|Hallo)\b/)).toEqual([]);
  });

  it('repeats no word ("Bitte bitten Sie …")', () => {
    // "… können Sie sie ignorieren", "die Person, die die Klinik …" are German; other doubles are slips.
    expect(offending(/\b(?!(?:sie|die|der|das)\b)(\p{L}+)\s+\1\b/iu)).toEqual([]);
    expect(offending(/\bbitte bitten\b/i)).toEqual([]);
  });

  it.each([
    ['Datenschutzhinweis', 'Datenschutzerklärung'],
    ['Lizenzvereinbarung', 'Endbenutzer-Lizenzvertrag'],
    ['Benutzername', 'E-Mail-Adresse (the field the sign-in asks for)'],
    ['registrieren', 'nothing: there is no registration'],
    // The role is a person, like Ärztin/Arzt and Pflegekraft (docs/glossary.md): not the department, and the
    // masculine only beside the feminine ("einer IT-Administratorin oder einem IT-Administrator").
    [
      'Rolle IT-Administration|IT-Administrationsrechte|(?<!IT-Administratorin oder (?:einem |den |der )?)IT-Administrator\\b(?!/in)',
      'IT-Administrator/in (the role)',
    ],
    ['Zur Hauptseite', 'Zur Startseite'],
    ['\\b(Update|Login|Account|Upload)\\b', 'Aktualisierung, Anmeldung, Konto, Hochladen'],
  ])('says %s as %s', (word) => {
    expect(offending(new RegExp(word))).toEqual([]);
  });
});
