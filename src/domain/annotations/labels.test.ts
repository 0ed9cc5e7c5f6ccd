import { describe, expect, it } from 'vitest';
import { clashesWith, DEFAULT_LABEL_KEYS, isDefaultLabelKey, labelName, labelNames, markNote } from './labels';

describe('labels', () => {
  it('has the eight default keys', () => {
    expect(DEFAULT_LABEL_KEYS).toEqual(['microaneurysm', 'haemorrhage', 'hard_exudate', 'leakage_point', 'oedema_area', 'drusen', 'scar_or_previous_laser', 'other']);
    expect(isDefaultLabelKey('drusen')).toBe(true);
    expect(isDefaultLabelKey('toString')).toBe(false);
  });

  it('trims a name and refuses a blank, over-long or control-character one', () => {
    expect(labelName('  Pigment clumping ')).toEqual({ ok: true, value: 'Pigment clumping' });
    expect(labelName(' \t ')).toEqual({ ok: false, problem: 'required' });
    expect(labelName('x'.repeat(60))).toMatchObject({ ok: true });
    expect(labelName('x'.repeat(61))).toEqual({ ok: false, problem: 'too_long' });
    expect(labelName('Pig\u0007ment')).toEqual({ ok: false, problem: 'invalid_characters' });
    expect(labelName('two\nlines')).toEqual({ ok: false, problem: 'invalid_characters' });
  });

  it('uses a name given in one language for both', () => {
    expect(labelNames('Pigment clumping', null)).toEqual({ en: 'Pigment clumping', de: 'Pigment clumping' });
    expect(labelNames(null, 'Pigmentverklumpung')).toEqual({ en: 'Pigmentverklumpung', de: 'Pigmentverklumpung' });
    expect(labelNames('A', 'B')).toEqual({ en: 'A', de: 'B' });
    expect(labelNames(null, null)).toBeNull();
  });

  it('finds a clash in either language, without regard to case', () => {
    const existing = [{ en: 'Haemorrhage', de: 'Blutung' }];
    expect(clashesWith({ en: 'blutung', de: 'blutung' }, existing)).toBe(true);
    expect(clashesWith({ en: 'New', de: 'HAEMORRHAGE' }, existing)).toBe(true);
    expect(clashesWith({ en: 'ÖDEM', de: 'ödem' }, [{ en: 'Ödem', de: 'x' }])).toBe(true);
    expect(clashesWith({ en: 'Haemorrhages', de: 'Blutungen' }, existing)).toBe(false);
  });

  it('keeps a note trimmed with its line breaks; blank is none', () => {
    expect(markNote('  superior\ntemporal ')).toEqual({ ok: true, value: 'superior\ntemporal' });
    expect(markNote('   ')).toEqual({ ok: true, value: null });
    expect(markNote(null)).toEqual({ ok: true, value: null });
    expect(markNote('x'.repeat(1001))).toEqual({ ok: false, problem: 'too_long' });
    expect(markNote('bell\u0007')).toEqual({ ok: false, problem: 'invalid_characters' });
  });
});
