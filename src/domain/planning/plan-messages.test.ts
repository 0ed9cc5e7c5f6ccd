// @vitest-environment node
import { describe, expect, it } from 'vitest';
import de from '../../../locales/de/api.json';
import en from '../../../locales/en/api.json';
import { PLAN_PROBLEM_CODES, PLAN_PROBLEM_PARAMS } from './plan-invariants';

const catalogues: Record<string, Record<string, string>> = { en, de };
const placeholders = (message: string) => [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('plan problem messages (locales/<lang>/api.json)', () => {
  it.each(PLAN_PROBLEM_CODES)('%s has a message in English and German with exactly the figures the check fills', (code) => {
    for (const [language, catalogue] of Object.entries(catalogues)) {
      expect(catalogue[code]?.trim().length, `${language}.${code}`).toBeGreaterThan(20);
      expect(placeholders(catalogue[code]), `${language}.${code}`).toEqual([...PLAN_PROBLEM_PARAMS[code]].sort());
    }
  });
});
