// @vitest-environment node
import { describe, expect, it } from 'vitest';
import de from '../../../locales/de/npt.json';
import en from '../../../locales/en/npt.json';
import { NPT_ERROR_CODES, type NptErrorCode } from './npt-error';

const catalogues: Record<string, Record<string, string>> = { en, de };

/** The params the reader puts on each code: every one must appear in the message, and nothing else. */
const PARAMS: Record<NptErrorCode, string[]> = {
  not_a_zip: [],
  manifest_missing: [],
  manifest_invalid: [],
  unknown_version: ['version'],
  wrong_kind: ['kind'],
  field_invalid: ['field'],
  image_missing: ['file'],
  image_invalid: ['file'],
  checksum_mismatch: ['file'],
  too_large: ['limitMb'],
  too_many_entries: ['limit'],
  path_traversal: ['entry'],
  duplicate_entry: ['entry'],
  unexpected_entry: ['entry'],
};

const placeholders = (message: string) => [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('NPT error messages (locales/<lang>/npt.json)', () => {
  it('has exactly one message per error code in English and German', () => {
    expect(Object.keys(PARAMS).sort()).toEqual([...NPT_ERROR_CODES].sort());
    for (const [language, catalogue] of Object.entries(catalogues)) {
      expect(Object.keys(catalogue).sort(), language).toEqual([...NPT_ERROR_CODES].sort());
      for (const code of NPT_ERROR_CODES) expect(catalogue[code].trim().length, `${language}.${code}`).toBeGreaterThan(20);
    }
  });

  it.each(NPT_ERROR_CODES)('%s uses exactly the placeholders the reader fills, in both languages', (code) => {
    expect(placeholders(en[code]), `en.${code}`).toEqual([...PARAMS[code]].sort());
    expect(placeholders(de[code]), `de.${code}`).toEqual([...PARAMS[code]].sort());
  });

  it('tells the clinic what to do, in German with the formal "Sie" and real umlauts', () => {
    for (const code of NPT_ERROR_CODES) {
      expect(en[code], code).toMatch(/please|Please/);
      expect(de[code], code).toMatch(/\bSie\b|\bIhre\b/);
      expect(de[code], code).not.toMatch(/\b(du|dein|deine)\b/i);
      expect(de[code], code).not.toMatch(/beschaed|pruef|groess|fuer|moeglich|ungueltig/i);
    }
    const german = Object.values(de).join(' ');
    for (const word of ['beschädigt', 'Prüfsumme', 'Größe', 'für', 'höchstens']) expect(german).toContain(word);
  });
});
