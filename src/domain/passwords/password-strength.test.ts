// @vitest-environment node
// The estimator shared by the SPA (strength meter) and the server (the authority): plain Node as well.
import fc from 'fast-check';
import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { checkPassword, SPECIAL_CHARACTERS, type PasswordStrength } from './password-rules';
import {
  BREACHED_LIST_SIZE,
  estimatePassword,
  feedbackTexts,
  isBreachedPassword,
  MIN_SCORE,
  userInputsOf,
} from './password-strength';

const LEVELS: PasswordStrength[] = ['simplified', 'standard', 'advanced'];
const passesRules = (password: string, strength: PasswordStrength) =>
  !checkPassword({ password, strength, checkConfirmation: false }).password;

describe('the breached-password list', () => {
  const list = dictionary['passwords-common'];

  it('is the first 10,000 of language-common’s ranked list of leaked passwords', () => {
    expect(BREACHED_LIST_SIZE).toBe(10_000);
    expect(list.length).toBeGreaterThanOrEqual(BREACHED_LIST_SIZE);
    expect(list.slice(0, 5)).toEqual(['123456', 'password', '12345678', 'qwerty', '123456789']);
    expect(isBreachedPassword(list[BREACHED_LIST_SIZE - 1])).toBe(true);
    expect(isBreachedPassword(list[BREACHED_LIST_SIZE])).toBe(false);
  });

  it('is compared case-insensitively', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: BREACHED_LIST_SIZE - 1 }), fc.boolean(), (rank, upper) => {
        const entry = list[rank];
        expect(isBreachedPassword(upper ? entry.toUpperCase() : entry)).toBe(true);
      }),
    );
  });

  it('refuses every breached password at every level, whatever its score', () => {
    // Breached passwords that the spec's rules let through: the estimator is what stops them.
    for (const password of ['Thunder1', 'Formula1', 'Babylon5']) {
      expect(isBreachedPassword(password), password).toBe(true);
      for (const strength of LEVELS) {
        expect(passesRules(password, 'standard')).toBe(true);
        expect(estimatePassword(password, strength)).toMatchObject({ breached: true, acceptable: false });
      }
    }
  });
});

describe('the score each strength level asks for', () => {
  it('grows with the level', () => {
    expect(MIN_SCORE).toEqual({ simplified: 1, standard: 2, advanced: 3 });
  });

  it('refuses passwords the spec’s rules let through but a dictionary guesses', () => {
    // German words with a capital and a number: the standard level's rules are met, the German dictionary knows them.
    for (const password of ['Krankenhaus1!', 'Liebe123', 'Hallo1234']) {
      expect(passesRules(password, 'standard'), password).toBe(true);
      expect(isBreachedPassword(password), password).toBe(false);
      const estimate = estimatePassword(password, 'standard');
      expect(estimate.score, password).toBeLessThan(MIN_SCORE.standard);
      expect(estimate.acceptable, password).toBe(false);
    }
  });

  it('takes the demo and test passwords at every level', () => {
    for (const password of ['Demo-Clinic-2026!', 'Laser-Spot-2027', 'Fundus-Photo-2027', 'Fovea-Ring-2026']) {
      for (const strength of LEVELS) expect(estimatePassword(password, strength).acceptable, `${password} ${strength}`).toBe(true);
    }
  });

  it('takes any random password of 16 allowed characters at the advanced level', () => {
    const allowed = `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789${SPECIAL_CHARACTERS}`.split('');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...allowed), { minLength: 16, maxLength: 24 }), (characters) => {
        const password = characters.join('');
        fc.pre(!/(.)\1\1/.test(password));
        expect(estimatePassword(password, 'advanced').score).toBeGreaterThanOrEqual(MIN_SCORE.advanced);
      }),
      { numRuns: 40 },
    );
  });

  it('counts the user’s name and e-mail address as guessable', () => {
    const inputs = userInputsOf({ email: 'ortrud.zwirbelmeier@augenklinik.example', firstName: 'Ortrud', lastName: 'Zwirbelmeier' });
    expect(inputs).toEqual(
      expect.arrayContaining(['ortrud.zwirbelmeier@augenklinik.example', 'ortrud.zwirbelmeier', 'ortrud', 'zwirbelmeier']),
    );
    const alone = estimatePassword('Zwirbelmeier26', 'standard');
    const knowing = estimatePassword('Zwirbelmeier26', 'standard', inputs);
    expect(alone.acceptable).toBe(true);
    expect(knowing.acceptable).toBe(false);
    expect(knowing.score).toBeLessThan(alone.score);
    expect(knowing.warning).toBe('userInputs');
  });
});

describe('feedback in the user’s language', () => {
  it('comes from the German and English language packs', () => {
    const estimate = estimatePassword('Sonnenblume', 'standard');
    expect(estimate.suggestions).toContain('anotherWord');
    expect(feedbackTexts(estimate, 'en')).toContain('Add more words that are less common.');
    expect(feedbackTexts(estimate, 'de')).toContain('Weitere Wörter, die weniger häufig vorkommen, hinzufügen.');
  });

  it('names the user’s own data in our words, the warning first', () => {
    const estimate = estimatePassword('Keller2026', 'standard', ['keller']);
    expect(feedbackTexts(estimate, 'de')[0]).toBe('Ihr Name und Ihre E-Mail-Adresse sind leicht zu erraten.');
    expect(feedbackTexts(estimate, 'en')[0]).toBe('Your name and e-mail address are easy to guess.');
  });

  it('is empty for a strong password', () => {
    expect(feedbackTexts(estimatePassword('Netzhaut-Laser-41', 'advanced'), 'de')).toEqual([]);
  });
});

describe('long passwords', () => {
  it('are estimated by their first 64 characters, quickly', () => {
    const started = performance.now();
    const estimate = estimatePassword('p@ssw0rdP@SSW0RD1!'.repeat(8).slice(0, 128), 'advanced');
    expect(performance.now() - started).toBeLessThan(1500);
    expect(estimate.acceptable).toBe(true);
    expect(estimatePassword('Aa1!'.repeat(32), 'advanced').acceptable).toBe(false);
  });
});
