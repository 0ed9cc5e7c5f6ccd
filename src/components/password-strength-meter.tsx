import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasswordStrength } from '@/domain/passwords/password-rules';
import type { PasswordEstimate, PasswordScore } from '@/domain/passwords/password-strength';
import './password-strength-meter.css';

type Estimator = typeof import('@/domain/passwords/password-strength');

let estimator: Promise<Estimator> | undefined;
/**
 * The estimator with its dictionaries, a chunk of its own fetched once per page, when the first password field
 * is shown: no route's first download carries it (scripts/bundle-report.mjs lists it under "on demand").
 */
export function loadEstimator(): Promise<Estimator> {
  estimator ??= import('@/domain/passwords/password-strength').catch((error: unknown) => {
    // Offline or a deployment replaced the chunk: the next field shown tries again; the server still decides.
    estimator = undefined;
    throw error;
  });
  return estimator;
}

/** Whose password it is: the estimator counts their names and e-mail address as easy to guess. */
export interface PasswordOwner {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** Typing pauses this long before the estimate (and the polite announcement) follows. */
export const ESTIMATE_DELAY_MS = 400;

/**
 * The estimate of the password typed so far, once typing pauses and the estimator has loaded; null before, and
 * for an empty password.
 */
function useEstimate(password: string, strength: PasswordStrength, owner: PasswordOwner): PasswordEstimate | null {
  const [estimate, setEstimate] = useState<PasswordEstimate | null>(null);
  const { email, firstName, lastName } = owner;
  useEffect(() => {
    if (!password) {
      setEstimate(null);
      return undefined;
    }
    let current = true;
    const timer = setTimeout(() => {
      loadEstimator()
        .then(({ estimatePassword, userInputsOf }) => {
          if (current) setEstimate(estimatePassword(password, strength, userInputsOf({ email, firstName, lastName })));
        })
        .catch(() => undefined);
    }, ESTIMATE_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [password, strength, email, firstName, lastName]);
  return password ? estimate : null;
}

const SCORE_NAMES = ['veryWeak', 'weak', 'fair', 'strong', 'veryStrong'] as const;
const SEGMENTS: PasswordScore[] = [0, 1, 2, 3, 4];

/**
 * How hard the typed password is to guess, below the spec's hints: a bar, one sentence announced politely once
 * typing pauses (strength, and whether the clinic's level takes it), and zxcvbn's warning and suggestions in the
 * UI language. Shows nothing for an empty password or while the estimator loads; the server decides either way.
 */
export function PasswordStrengthMeter({
  id,
  password,
  strength,
  owner,
}: {
  id: string;
  password: string;
  strength: PasswordStrength;
  owner: PasswordOwner;
}) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    loadEstimator().catch(() => undefined);
  }, []);
  const estimate = useEstimate(password, strength, owner);
  const [feedbackTexts, setFeedbackTexts] = useState<string[]>([]);
  const lang = i18n.language === 'de' ? 'de' : 'en';
  useEffect(() => {
    if (!estimate) {
      setFeedbackTexts([]);
      return undefined;
    }
    // Loaded already (there is an estimate): this resolves at once, and again when the UI language changes.
    let current = true;
    loadEstimator()
      .then(({ feedbackTexts: texts }) => current && setFeedbackTexts(texts(estimate, lang)))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [estimate, lang]);

  const verdict = !estimate
    ? null
    : estimate.breached
      ? t('passwordStrength.breached')
      : estimate.acceptable
        ? t('passwordStrength.enough')
        : t('passwordStrength.tooWeak');
  return (
    <div id={id} className="mp-password-strength" data-score={estimate?.score} data-acceptable={estimate?.acceptable}>
      {estimate && (
        <div className="mp-strength-bar" aria-hidden>
          {SEGMENTS.map((segment) => (
            <span key={segment} className={segment <= estimate.score ? 'mp-strength-filled' : undefined} />
          ))}
        </div>
      )}
      {/* Always in the document, so that screen readers hear it change; it changes only when typing pauses. */}
      <p className="mp-strength-verdict" aria-live="polite" aria-atomic="true">
        {estimate && (
          <>
            <strong>{t('passwordStrength.label', { level: t(`passwordStrength.${SCORE_NAMES[estimate.score]}`) })}</strong>{' '}
            {verdict}
          </>
        )}
      </p>
      {/* Sentences, not list items: the spec's hints above are the field's list. */}
      {estimate && !estimate.acceptable && feedbackTexts.length > 0 && (
        <div className="mp-strength-feedback">
          {feedbackTexts.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
    </div>
  );
}
