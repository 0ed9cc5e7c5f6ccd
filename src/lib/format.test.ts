import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageOn, formatBytes, formatCalendarDate, formatDate, formatDateTime, formatList, formatNumber, localToday } from './format';

describe('formats', () => {
  it('writes a birthday as the language does, never a day off', () => {
    expect(formatCalendarDate('1951-04-23', 'de')).toBe('23.04.1951');
    expect(formatCalendarDate('1951-04-23', 'en')).toBe('23/04/1951');
    expect(formatCalendarDate('not a date', 'en')).toBe('not a date');
  });

  it('counts full years', () => {
    expect(ageOn('1951-04-23', '2026-04-22')).toBe(74);
    expect(ageOn('1951-04-23', '2026-04-23')).toBe(75);
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25);
  });

  it('takes today from the user’s calendar', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });

  it('writes sizes in decimal units with the language’s decimal mark', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(12_400_000, 'en')).toBe('12.4 MB');
    expect(formatBytes(12_400_000, 'de')).toBe('12,4 MB');
  });
});

describe('dates written by hand', () => {
  const tags = { en: 'en-GB', de: 'de-DE' } as const;
  const language = fc.constantFrom<keyof typeof tags>('en', 'de');
  // Instants from 1900 to 2100, to the minute and beyond.
  const instant = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true });

  it('read as Intl writes them, in the user’s zone and for a calendar date in UTC', () => {
    fc.assert(
      fc.property(instant, language, (date, lang) => {
        const tag = tags[lang];
        const iso = date.toISOString();
        expect(formatDateTime(iso, lang)).toBe(new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(date));
        expect(formatDate(iso, lang)).toBe(new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric' }).format(date));
        const calendar = iso.slice(0, 10);
        const utc = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
        expect(formatCalendarDate(calendar, lang)).toBe(utc.format(new Date(`${calendar}T00:00:00Z`)));
      }),
    );
  });

  it('as a clinic reads them', () => {
    const morning = new Date(2026, 8, 3, 9, 5).toISOString();
    expect(formatDateTime(morning, 'en')).toBe('3 Sept 2026, 09:05');
    expect(formatDateTime(morning, 'de')).toBe('03.09.2026, 09:05');
    expect(formatDate(morning, 'en')).toBe('03/09/2026');
    expect(formatDate(morning, 'de')).toBe('03.09.2026');
    expect(formatDateTime('yesterday', 'de')).toBe('yesterday');
    expect(formatDate('', 'en')).toBe('');
  });

  it('leaves a year outside 1000–9999 to Intl', () => {
    expect(formatCalendarDate('0999-12-31', 'de')).toBe(new Intl.DateTimeFormat('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(new Date('0999-12-31T00:00:00Z')));
  });
});

describe('formatList', () => {
  it('lists as each language does, British English without a comma before "and"', () => {
    expect(formatList(['name', 'birthday', 'gender'], 'en')).toBe('name, birthday and gender');
    expect(formatList(['Vorname', 'Geburtsdatum', 'Geschlecht'], 'de')).toBe('Vorname, Geburtsdatum und Geschlecht');
    expect(formatList(['gender'], 'en')).toBe('gender');
  });
});

describe('formatNumber', () => {
  it('writes numbers as each language does, without a negative zero', () => {
    expect(formatNumber(1234.56, 'en', 1)).toBe('1,234.6');
    expect(formatNumber(1234.56, 'de', 1)).toBe('1.234,6');
    expect(formatNumber(-0.3, 'en', 0)).toBe('0');
    expect(formatNumber(-12, 'de', 0)).toBe('-12');
  });
});
