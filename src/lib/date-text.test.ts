import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateRangeProblem, formatDateText, isIsoDate, parseDateText } from './date-text';
import { formatCalendarDate } from './format';

const LANGUAGES = ['en', 'de'] as const;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Every real calendar day of the years a field may meet (and a few it must refuse in range checks). */
const realDay = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

describe('dates typed into a field', () => {
  it('reads German and English day-first dates, with or without leading zeros', () => {
    for (const text of ['23.04.1951', '23.4.1951', ' 23.4.1951 ', '23/04/1951', '23/4/1951', '23-04-1951', '23. 4. 1951', '1951-04-23']) {
      expect(parseDateText(text), text).toEqual({ ok: true, value: '1951-04-23' });
    }
    expect(parseDateText('1.2.1960')).toEqual({ ok: true, value: '1960-02-01' });
    expect(parseDateText('29.02.2024')).toEqual({ ok: true, value: '2024-02-29' });
    expect(parseDateText('29.02.2000')).toEqual({ ok: true, value: '2000-02-29' });
  });

  it('refuses what is not day, month and four-digit year, never guessing a century', () => {
    for (const text of ['23.04.51', '23.04.', '1951', '23041951', '23.04/1951', '04/23/1951x', '21960-04-23', '23.04.21960', 'abc', '23..1951', '1951-4-23x', '+23.04.1951']) {
      expect(parseDateText(text), text).toEqual({ ok: false, problem: 'format' });
    }
    expect(parseDateText('')).toEqual({ ok: false, problem: 'empty' });
    expect(parseDateText('   ')).toEqual({ ok: false, problem: 'empty' });
  });

  it('refuses days the calendar does not have', () => {
    for (const text of ['31.02.1951', '29.02.2023', '29.02.1900', '31.04.1951', '00.04.1951', '23.13.1951', '23.00.1951', '32.01.1951', '04/23/1951', '1951-02-30']) {
      expect(parseDateText(text), text).toEqual({ ok: false, problem: 'impossible' });
    }
  });

  it('shows a date in the UI language, as the rest of the app writes it (src/lib/format.ts)', () => {
    expect(formatDateText('1951-04-23', 'de')).toBe('23.04.1951');
    expect(formatDateText('1951-04-23', 'de-DE')).toBe('23.04.1951');
    expect(formatDateText('1951-04-23', 'en')).toBe('23/04/1951');
    expect(formatDateText('', 'en')).toBe('');
    expect(formatDateText('23.04.19', 'de')).toBe('23.04.19');
    fc.assert(
      fc.property(realDay, fc.constantFrom(...LANGUAGES), (day, language) => {
        expect(formatDateText(day, language)).toBe(formatCalendarDate(day, language));
      }),
    );
  });

  it('reads back every date it shows, in both languages (format ∘ parse is the identity)', () => {
    fc.assert(
      fc.property(realDay, fc.constantFrom(...LANGUAGES), (day, language) => {
        expect(parseDateText(formatDateText(day, language))).toEqual({ ok: true, value: day });
      }),
    );
  });

  it('reads a date typed without leading zeros, with any separator, as the same day', () => {
    fc.assert(
      fc.property(realDay, fc.constantFrom('.', '/', '-'), fc.boolean(), (day, separator, zeros) => {
        const [year, month, date] = day.split('-').map(Number);
        const typed = [date, month].map((n) => (zeros ? pad(n) : String(n))).concat(pad(year, 4)).join(separator);
        expect(parseDateText(typed)).toEqual({ ok: true, value: day });
      }),
    );
  });

  it('shows what it read in the field’s form, whatever was typed (parse then format is stable)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), fc.constantFrom(...LANGUAGES), (text, language) => {
        const read = parseDateText(text);
        if (!read.ok) return;
        expect(isIsoDate(read.value)).toBe(true);
        expect(parseDateText(formatDateText(read.value, language))).toEqual(read);
      }),
    );
  });

  it('refuses every impossible day of every month, and takes every possible one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const real = new Date(Date.UTC(year, month - 1, day));
        const exists = month >= 1 && month <= 12 && day >= 1 && real.getUTCMonth() === month - 1 && real.getUTCDate() === day;
        const read = parseDateText(`${day}.${month}.${year}`);
        expect(read).toEqual(exists ? { ok: true, value: `${year}-${pad(month)}-${pad(day)}` } : { ok: false, problem: 'impossible' });
        expect(isIsoDate(`${year}-${pad(month)}-${pad(day)}`)).toBe(exists);
      }),
    );
  });

  it('takes every ISO date a form or a URL holds, so a form’s value read back is never refused', () => {
    fc.assert(
      fc.property(realDay, (day) => {
        expect(parseDateText(day)).toEqual({ ok: true, value: day });
      }),
    );
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('1.1.1950')).toBe(false);
    expect(isIsoDate('21960-04-23')).toBe(false);
  });

  it('says when a date lies outside a range, both ends included', () => {
    expect(dateRangeProblem('1899-12-31', '1900-01-01', '2026-11-21')).toBe('tooEarly');
    expect(dateRangeProblem('1900-01-01', '1900-01-01', '2026-11-21')).toBeUndefined();
    expect(dateRangeProblem('2026-11-21', '1900-01-01', '2026-11-21')).toBeUndefined();
    expect(dateRangeProblem('2026-11-22', '1900-01-01', '2026-11-21')).toBe('tooLate');
    expect(dateRangeProblem('9999-12-31')).toBeUndefined();
    expect(dateRangeProblem('1999-12-31', '2000-01-01')).toBe('tooEarly');
  });
});
