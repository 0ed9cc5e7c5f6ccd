// @vitest-environment node
// Pure rules shared by the SPA and the server: they run in plain Node as well.
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/api.json';
import { COMMON_PASSWORDS } from './common-passwords';
import { checkPassword, isCommonPassword, passwordHints, unmetHints } from './password-rules';

const ok = (password: string, strength: 'simplified' | 'standard' | 'advanced', email?: string) =>
  checkPassword({ password, passwordConfirmation: password, strength, email });

describe('the common-password list', () => {
  it('holds 1,000 distinct lower-case entries with the classics', () => {
    expect(COMMON_PASSWORDS).toHaveLength(1000);
    expect(new Set(COMMON_PASSWORDS).size).toBe(1000);
    for (const entry of COMMON_PASSWORDS) expect(entry).toBe(entry.toLowerCase());
    for (const classic of [
      '123456', 'password', 'qwerty', '111111', 'abc123', 'letmein', 'iloveyou', 'admin', 'welcome', 'monkey',
      'dragon', 'football', '12345678', 'password1', 'qwerty123', 'trustno1', 'sunshine', 'princess',
    ]) {
      expect(COMMON_PASSWORDS, classic).toContain(classic);
    }
  });

  it('is compared case-insensitively', () => {
    expect(isCommonPassword('PassWord1')).toBe(true);
    expect(isCommonPassword('Fovea-Ring-2026')).toBe(false);
  });
});

describe('simplified: at least 6 characters and a number or symbol', () => {
  it('accepts', () => {
    expect(ok('retina7', 'simplified')).toEqual({});
    expect(ok('retina!', 'simplified')).toEqual({});
    expect(ok('Lx_9', 'simplified').password).toContain('password.min_length_6');
  });
  it('refuses letters only and short ones', () => {
    expect(ok('retinas', 'simplified').password).toEqual(['validation.password', 'password.needs_number_or_symbol']);
    expect(ok('ret1', 'simplified').password).toEqual(['validation.password', 'password.min_length_6']);
  });
});

describe('standard: at least 8, a capital, a small letter and a number', () => {
  it('accepts', () => {
    expect(ok('Macula2026', 'standard')).toEqual({});
  });
  it('names every unmet rule', () => {
    expect(ok('macula', 'standard').password).toEqual([
      'validation.password',
      'password.min_length_8',
      'password.needs_capital',
      'password.needs_number',
    ]);
    expect(ok('MACULA2026', 'standard').password).toEqual(['validation.password', 'password.needs_small']);
    expect(ok('Maculagrid', 'standard').password).toEqual(['validation.password', 'password.needs_number']);
  });
});

describe('advanced: at least 12, a capital, a small letter, a number and a special character', () => {
  it('accepts', () => {
    expect(ok('Macula-Grid-2026', 'advanced')).toEqual({});
  });
  it('refuses what standard accepts', () => {
    expect(ok('Macula2026', 'advanced').password).toEqual([
      'validation.password',
      'password.min_length_12',
      'password.needs_special',
    ]);
    expect(ok('MaculaGrid2026', 'advanced').password).toEqual(['validation.password', 'password.needs_special']);
  });
});

describe('at every level', () => {
  it('allows only letters, numbers and !@#$%^&*-_=', () => {
    for (const strength of ['simplified', 'standard', 'advanced'] as const) {
      expect(ok('Macula Grid 2026!', strength).password?.[0]).toBe('validation.invalid_characters');
      expect(ok('Macula.Grid.2026!', strength).password?.[0]).toBe('validation.invalid_characters');
      expect(ok('Makula-Gitter-2026ä', strength).password?.[0]).toBe('validation.invalid_characters');
    }
    expect(ok('A1b2!@#$%^&*-_=', 'advanced')).toEqual({});
    expect(en['validation.invalid_characters']).toBe("Invalid characters. Use only letters, numbers, and !@#$%^&*-_=");
  });

  it('refuses the common passwords, whatever the case', () => {
    expect(ok('password1', 'simplified').password).toEqual(['validation.password_common']);
    expect(ok('Password123', 'standard').password).toEqual(['validation.password_common']);
    expect(ok('Password123!', 'advanced').password).toContain('validation.password_common');
    expect(ok('Welcome2024', 'standard').password).toEqual(['validation.password_common']);
  });

  it("refuses the local part of the user's e-mail address", () => {
    expect(ok('Anna2026Keller', 'standard', 'anna2026keller@clinic.example').password).toEqual([
      'validation.password_is_email',
    ]);
    expect(ok('Anna2026Keller', 'standard', 'someone@clinic.example')).toEqual({});
  });

  it('checks the confirmation', () => {
    expect(checkPassword({ password: 'Macula2026', passwordConfirmation: 'Macula2027', strength: 'standard' })).toEqual({
      passwordConfirmation: ['validation.password_mismatch'],
    });
    expect(checkPassword({ password: 'Macula2026', passwordConfirmation: '', strength: 'standard' })).toEqual({
      passwordConfirmation: ['validation.confirm_required'],
    });
    expect(checkPassword({ password: 'Macula2026', strength: 'standard', checkConfirmation: false })).toEqual({});
  });

  it('asks for a password when there is none', () => {
    expect(checkPassword({ password: '', passwordConfirmation: '', strength: 'standard' })).toEqual({
      password: ['validation.required'],
      passwordConfirmation: ['validation.confirm_required'],
    });
  });

  it('lists the hints of a level for an empty password', () => {
    expect(unmetHints('', 'advanced')).toEqual([
      'password.min_length_12',
      'password.needs_capital',
      'password.needs_small',
      'password.needs_number',
      'password.needs_special',
    ]);
  });

  it('has every message key in the catalogue', () => {
    const keys = new Set(Object.keys(en));
    const all = [
      ...unmetHints('', 'advanced'),
      ...unmetHints('', 'simplified'),
      ...unmetHints('', 'standard'),
      'validation.password_common',
      'validation.password_is_email',
      'validation.password_mismatch',
      'validation.confirm_required',
    ];
    for (const key of all) expect(keys.has(key), key).toBe(true);
  });
});

describe('passwordHints: the live hints of a level', () => {
  const unmet = (password: string, strength: 'simplified' | 'standard' | 'advanced') =>
    passwordHints(password, strength)
      .filter((hint) => !hint.met)
      .map((hint) => hint.id);

  it('lists the hints of each level in order, with the minimum length', () => {
    expect(passwordHints('', 'simplified').map((hint) => hint.id)).toEqual([
      'min_length', 'number_or_symbol', 'allowed_characters', 'not_common',
    ]);
    expect(passwordHints('', 'standard').map((hint) => hint.id)).toEqual([
      'min_length', 'capital', 'small', 'number', 'allowed_characters', 'not_common',
    ]);
    expect(passwordHints('', 'advanced').map((hint) => hint.id)).toEqual([
      'min_length', 'capital', 'small', 'number', 'special', 'allowed_characters', 'not_common',
    ]);
    expect(passwordHints('', 'simplified')[0]).toEqual({ id: 'min_length', met: false, min: 6 });
    expect(passwordHints('', 'standard')[0]?.min).toBe(8);
    expect(passwordHints('', 'advanced')[0]?.min).toBe(12);
  });

  it('marks what a password meets', () => {
    expect(unmet('', 'standard')).toEqual(['min_length', 'capital', 'small', 'number']);
    expect(unmet('macula', 'standard')).toEqual(['min_length', 'capital', 'number']);
    expect(unmet('Macula2026', 'standard')).toEqual([]);
    expect(unmet('Macula2026', 'advanced')).toEqual(['min_length', 'special']);
    expect(unmet('Macula-Grid-2026', 'advanced')).toEqual([]);
    expect(unmet('retinas', 'simplified')).toEqual(['number_or_symbol']);
    expect(unmet('Macula 2026', 'standard')).toEqual(['allowed_characters']);
    expect(unmet('Password123', 'standard')).toEqual(['not_common']);
  });

  it('agrees with unmetHints on the level rules', () => {
    for (const strength of ['simplified', 'standard', 'advanced'] as const) {
      for (const password of ['', 'abc', 'retina7', 'Macula2026', 'MACULA-2026-GRID', 'Macula-Grid-2026']) {
        const levelUnmet = passwordHints(password, strength).filter(
          (hint) => !hint.met && hint.id !== 'allowed_characters' && hint.id !== 'not_common',
        );
        expect(levelUnmet.length, `${strength} ${password}`).toBe(unmetHints(password, strength).length);
      }
    }
  });
});
