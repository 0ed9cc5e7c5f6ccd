import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalMark, formatNumberText, parseNumberText, steppedValue } from './locale-number';

const LANGUAGES = ['en', 'de'] as const;

/** The wizard's fields (their ranges and decimals), which the properties run over. */
const FIELDS = [
  { name: 'grid spacing', min: 0.5, max: 4, digits: 2 },
  { name: 'laser power (mW)', min: 0.1, max: 1000, digits: 1 },
  { name: 'pulse duration (ms)', min: 0.1, max: 1000, digits: 1 },
  { name: 'power factor', min: 0.5, max: 1.5, digits: 2 },
  { name: 'zone offset (µm)', min: -20000, max: 20000, digits: 0 },
  { name: 'rotation (°)', min: -180, max: 180, digits: 0 },
] as const;

describe('numbers typed into a field', () => {
  it('reads German with a decimal comma and English with a decimal point', () => {
    expect(parseNumberText('2,5', 'de', 2)).toEqual({ ok: true, value: 2.5 });
    expect(parseNumberText('2.5', 'en', 2)).toEqual({ ok: true, value: 2.5 });
    expect(parseNumberText(' -12,75 ', 'de', 2)).toEqual({ ok: true, value: -12.75 });
    expect(parseNumberText('−3', 'en', 0)).toEqual({ ok: true, value: -3 });
    expect(parseNumberText(',5', 'de', 1)).toEqual({ ok: true, value: 0.5 });
    // Typing "2,5" passes through "2,": it is 2 until the 5 comes.
    expect(parseNumberText('2,', 'de', 1)).toEqual({ ok: true, value: 2 });
    expect(parseNumberText('-0', 'en', 0)).toEqual({ ok: true, value: 0 });
    expect(Object.is((parseNumberText('-0', 'en', 0) as { value: number }).value, -0)).toBe(false);
  });

  it('refuses the other language’s mark and thousands separators instead of guessing', () => {
    // "2.5" in German is refused, not read as 25 or 2.5; "1.234" could be either 1234 or 1,234.
    for (const text of ['2.5', '1.234', '1.234,5', '1,234.5']) expect(parseNumberText(text, 'de', 2)).toEqual({ ok: false, problem: 'wrong_separator' });
    for (const text of ['2,5', '1,234', '1,234.5', '1.234,5']) expect(parseNumberText(text, 'en', 2)).toEqual({ ok: false, problem: 'wrong_separator' });
  });

  it('refuses what is not a number, and more decimals than the field takes', () => {
    for (const text of ['abc', '-', ',', '1-2', '--3', '1e3', 'Infinity', '0x10', '2 5', '+2', '½']) expect(parseNumberText(text, 'de', 2)).toMatchObject({ ok: false, problem: 'not_a_number' });
    expect(parseNumberText('', 'en', 1)).toEqual({ ok: false, problem: 'empty' });
    expect(parseNumberText('   ', 'de', 1)).toEqual({ ok: false, problem: 'empty' });
    expect(parseNumberText('2,55', 'de', 1)).toEqual({ ok: false, problem: 'too_many_decimals' });
    expect(parseNumberText('500.5', 'en', 0)).toEqual({ ok: false, problem: 'too_many_decimals' });
  });

  it('never takes a text with the other language’s mark (property)', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.constantFrom(...LANGUAGES), fc.stringMatching(/^-?\d{0,5}[.,]?\d{0,4}[.,]?\d{0,3}$/), (language, text) => {
        const other = decimalMark(language) === ',' ? '.' : ',';
        fc.pre(text.includes(other));
        checked += 1;
        expect(parseNumberText(text, language, 4).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
    expect(checked).toBeGreaterThan(100);
  });
});

describe('numbers shown in a field', () => {
  it('writes the language’s decimal mark, no grouping, no trailing zeros, no negative zero', () => {
    expect(formatNumberText(2.5, 'de', 2)).toBe('2,5');
    expect(formatNumberText(2.5, 'en', 2)).toBe('2.5');
    expect(formatNumberText(0.8, 'de', 2)).toBe('0,8');
    expect(formatNumberText(12345.678, 'de', 1)).toBe('12345,7');
    expect(formatNumberText(12345.678, 'en', 1)).toBe('12345.7');
    expect(formatNumberText(2, 'de', 2)).toBe('2');
    expect(formatNumberText(-0.3, 'de', 0)).toBe('0');
    expect(formatNumberText(-1250, 'de', 0)).toBe('-1250');
  });

  it('reads back every value of every field exactly as it wrote it, in en and de (property)', () => {
    for (const field of FIELDS) {
      const scale = 10 ** field.digits;
      let checked = 0;
      fc.assert(
        fc.property(fc.constantFrom(...LANGUAGES), fc.integer({ min: Math.round(field.min * scale), max: Math.round(field.max * scale) }), (language, units) => {
          const value = units / scale;
          checked += 1;
          const text = formatNumberText(value, language, field.digits);
          expect(parseNumberText(text, language, field.digits), `${field.name}: ${text}`).toEqual({ ok: true, value: value || 0 });
        }),
        { numRuns: 400 },
      );
      expect(checked, field.name).toBe(400);
    }
  });

  it('reads back the range’s ends too', () => {
    for (const field of FIELDS) {
      for (const language of LANGUAGES) {
        for (const value of [field.min, field.max]) expect(parseNumberText(formatNumberText(value, language, field.digits), language, field.digits)).toEqual({ ok: true, value });
      }
    }
  });
});

describe('arrow-key steps', () => {
  const spacing = { min: 0.5, max: 4, step: 0.05, digits: 2 };
  const radius = { min: 50, max: 3000, step: 10, digits: 0 };

  it('steps by the step, without floating-point dust', () => {
    expect(steppedValue(2, 1, spacing)).toBe(2.05);
    expect(steppedValue(2.05, -1, spacing)).toBe(2);
    expect(steppedValue(0.15 + 0.5, 1, spacing)).toBe(0.7);
    expect(steppedValue(2, 1, spacing, 10)).toBe(2.5);
  });

  it('lands a value between steps on the grid first, as a number input does', () => {
    expect(steppedValue(523.4, 1, radius)).toBe(530);
    expect(steppedValue(523.4, -1, radius)).toBe(520);
  });

  it('stays within the range', () => {
    expect(steppedValue(4, 1, spacing)).toBe(4);
    expect(steppedValue(0.5, -1, spacing)).toBe(0.5);
    expect(steppedValue(3000, 1, radius, 10)).toBe(3000);
  });

  it('gives a value the field shows and reads back as it is (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LANGUAGES), fc.double({ min: 0.5, max: 4, noNaN: true }), fc.constantFrom(1 as const, -1 as const), (language, value, direction) => {
        const next = steppedValue(value, direction, spacing);
        expect(next).toBeGreaterThanOrEqual(spacing.min);
        expect(next).toBeLessThanOrEqual(spacing.max);
        expect(parseNumberText(formatNumberText(next, language, 2), language, 2)).toEqual({ ok: true, value: next });
      }),
    );
  });
});
