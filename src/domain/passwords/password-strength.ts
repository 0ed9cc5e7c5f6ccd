// How hard a password is to guess, beside the spec's rules (password-rules.ts): zxcvbn-ts with the common,
// English and German dictionaries, and the breached-password list. Pure (no Node, React or DOM), but heavy: the
// dictionaries are about 2.4 MB of words, so the SPA imports this module only when a password field is shown
// (src/components/password-strength-meter.tsx) and the server on the first new password (server/services/sessions.ts).
//
// Thresholds per strength level (docs/security.md): zxcvbn's score is the log of the guesses an attacker
// needs (1: ≥ 10^3, 2: ≥ 10^6, 3: ≥ 10^8, 4: ≥ 10^10). Sign-in is throttled and hashes are argon2id, so online
// guessing is the threat to hold off at the lower levels; the advanced level also holds off an offline attack
// on a stolen hash for a while.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as deDictionary, translations as deTranslations } from '@zxcvbn-ts/language-de';
import { dictionary as enDictionary, translations as enTranslations } from '@zxcvbn-ts/language-en';
import type { PasswordStrength } from './password-rules';

export type PasswordScore = 0 | 1 | 2 | 3 | 4;
export type FeedbackLanguage = 'en' | 'de';

/** The least score the server takes at each strength level. */
export const MIN_SCORE: Record<PasswordStrength, PasswordScore> = { simplified: 1, standard: 2, advanced: 3 };

/**
 * How many entries of language-common's `passwords` list count as breached: its first 10,000 (of 49,233).
 * The list is Mark Burnett's ten million leaked passwords (xato.net, 2015), lower-cased and ranked by how often
 * each was used; zxcvbn-ts left out those its patterns (sequences, repeats, dates) already rank as guessable.
 */
export const BREACHED_LIST_SIZE = 10_000;

/**
 * Only the first 64 characters are estimated: the matchers' work grows steeply with length (a 128-character
 * password took up to a second, 64 at most ~0.1 s), and what follows can only make a password stronger.
 */
const ESTIMATED_LENGTH = 64;
/** zxcvbn-ts's default (100) made l33t-heavy passwords of 64 characters take 0.5 s. */
const L33T_MAX_SUBSTITUTIONS = 20;

const BREACHED = new Set(commonDictionary['passwords-common'].slice(0, BREACHED_LIST_SIZE));

/** True for a password on the breached list, whatever its case. */
export const isBreachedPassword = (password: string): boolean => BREACHED.has(password.toLowerCase());

let factory: ZxcvbnFactory | undefined;
/** Built on first use (about 0.15 s: it ranks every dictionary), then kept for the process or page. */
function estimator(): ZxcvbnFactory {
  // Without `translations` zxcvbn-ts reports its feedback as keys; feedbackTexts translates them, so one
  // estimate serves either language.
  factory ??= new ZxcvbnFactory({
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...enDictionary, ...deDictionary },
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
  return factory;
}

type Translations = typeof enTranslations;
export type WarningKey = keyof Translations['warnings'];
export type SuggestionKey = keyof Translations['suggestions'];

/**
 * The language packs' texts, except where our user inputs are meant: the packs speak of "personal or page related
 * data", ours are the user's name and e-mail address.
 */
const TRANSLATIONS: Record<FeedbackLanguage, Translations> = {
  en: {
    ...enTranslations,
    warnings: { ...enTranslations.warnings, userInputs: 'Your name and e-mail address are easy to guess.' },
  },
  de: {
    ...deTranslations,
    warnings: { ...deTranslations.warnings, userInputs: 'Ihr Name und Ihre E-Mail-Adresse sind leicht zu erraten.' },
  },
};

export interface PasswordEstimate {
  score: PasswordScore;
  /** On the breached list (the first BREACHED_LIST_SIZE entries). */
  breached: boolean;
  /** Neither breached nor below the level's MIN_SCORE: what the server asks beyond the spec's rules. */
  acceptable: boolean;
  warning: WarningKey | null;
  suggestions: SuggestionKey[];
}

/**
 * What the estimator should treat as guessable for this user: the e-mail address, its local part and that part's
 * pieces (anna.keller → anna, keller), and the names.
 */
export function userInputsOf(user: { email?: string | null; firstName?: string | null; lastName?: string | null }): string[] {
  const email = (user.email ?? '').trim().toLowerCase();
  const localPart = email.split('@')[0];
  const pieces = localPart.split(/[._+-]+/);
  const names = [user.firstName, user.lastName].flatMap((name) => (name ?? '').trim().toLowerCase().split(/[\s-]+/));
  return [...new Set([email, localPart, ...pieces, ...names].filter((input) => input.length >= 3))];
}

const isWarningKey = (key: string): key is WarningKey => key in enTranslations.warnings;
const isSuggestionKey = (key: string): key is SuggestionKey => key in enTranslations.suggestions;

/** How guessable `password` is for a user of this strength level (`userInputs`: userInputsOf the user). */
export function estimatePassword(
  password: string,
  strength: PasswordStrength,
  userInputs: readonly string[] = [],
): PasswordEstimate {
  const result = estimator().check(password, [...userInputs]);
  const score = result.score as PasswordScore;
  const breached = isBreachedPassword(password);
  const { warning, suggestions } = result.feedback;
  return {
    score,
    breached,
    acceptable: !breached && score >= MIN_SCORE[strength],
    warning: warning && isWarningKey(warning) ? warning : null,
    suggestions: suggestions.filter(isSuggestionKey),
  };
}

/** zxcvbn's warning and suggestions for an estimate as sentences in `lang` (the warning first). */
export function feedbackTexts(estimate: Pick<PasswordEstimate, 'warning' | 'suggestions'>, lang: FeedbackLanguage): string[] {
  const texts = TRANSLATIONS[lang];
  return [
    ...(estimate.warning ? [texts.warnings[estimate.warning]] : []),
    ...estimate.suggestions.map((key) => texts.suggestions[key]),
  ];
}
