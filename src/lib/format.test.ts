import { describe, expect, it } from 'vitest';
import { ageOn, formatBytes, formatCalendarDate, formatList, formatNumber, localToday } from './format';

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
