import { Callout } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Eye } from '@generated/model/eye';
import { formatNumber } from '@/lib/format';
import type { ClinicalProblem } from './plan-safety';

/**
 * A value that settles: a change shows once the value has stayed the same for `ms`, so that figures that change
 * with every pointer move (a zone being resized) and a refusal that comes and goes as a zone's edge passes a
 * limit do not flicker, on the screen or in a screen reader. `now` shows the value at once (a drag has ended).
 */
export function useSettled<T>(value: T, ms: number, now = false): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), now ? 0 : ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms, now]);
  return now ? value : settled;
}

/** A length measured on the image, with "≈" when the plan's scale is estimated (docs/clinical-limits.md); 0 is 0. */
export function useLength(estimated: boolean) {
  const { i18n } = useTranslation('planning');
  return (um: number) => `${estimated && um > 0 ? '≈\u00a0' : ''}${formatNumber(um, i18n.language, 0)}`;
}

/** The refusal of a clinical problem in the clinic's words (the server's message, locales/*\/api.json), its figures in the UI language. */
export function useSafetyMessage(eye: Eye, estimated: boolean) {
  const { t, i18n } = useTranslation('planning');
  const number = (value: number, digits = 0) => formatNumber(value, i18n.language, digits);
  const length = useLength(estimated);
  return ({ code, params }: ClinicalProblem): string => {
    switch (code) {
      case 'plan.laterality_mismatch':
        return eye === 'OS' ? t('safety.lateralityOS') : t('safety.lateralityOD');
      case 'plan.disc_fovea_implausible':
        return t('safety.discFoveaImplausible', { distance: length(params.distanceUm), min: number(params.minUm), max: number(params.maxUm) });
      case 'plan.disc_not_covered':
        return t('safety.discNotCovered', { margin: number(params.marginUm), covered: length(params.coveredUm) });
      case 'plan.spot_near_fovea':
        return t('safety.spotNearFovea', { count: params.count, value: number(params.count), minimum: number(params.minimumUm), closest: number(params.closestUm) });
      case 'plan.spacing_too_small':
        return t('safety.spacingTooSmall', { spacing: number(params.spacing, 2), minimum: number(params.minimum, 2) });
      case 'plan.ring_too_wide':
        return t('safety.ringTooWide', { outer: number(params.outerRadiusUm), max: number(params.maxUm) });
    }
  };
}

/** How long a changed refusal waits before it shows: longer than the pause between two pointer moves of a drag. */
const SETTLE_MS = 350;

/**
 * The refusals the step's save would meet, as the step shows them: in the clinic's words, settled (see
 * useSettled; `now` shows a change at once: a drag ended, a key moved a zone).
 */
export function useSafetyLines(problems: readonly ClinicalProblem[], eye: Eye, estimated: boolean, now = false): string[] {
  const message = useSafetyMessage(eye, estimated);
  // Settled as text: a new array with the same refusals is no change.
  const text = useSettled(problems.map(message).join('\n'), SETTLE_MS, now);
  return text ? text.split('\n') : [];
}

/**
 * The refusals, said before the user saves, beside the confirm button that names them as the reason it is
 * disabled (`id`, for aria-describedby). The live region is always there (an alert added with its text is not
 * read by every screen reader), polite (it must not cut off what is being read while the user types or drags)
 * and speaks its whole text on a change.
 */
export function SafetyAlert({ id, lines }: { id: string; lines: readonly string[] }) {
  const { t } = useTranslation('planning');
  return (
    <div id={id} role="alert" aria-live="polite" aria-atomic="true" className="mp-safety-alert">
      {lines.length > 0 && (
        <Callout intent="danger" compact className="mp-step-callout" title={t('safety.title')}>
          {lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </Callout>
      )}
    </div>
  );
}

/**
 * The same refusals under the image, for the stacked layout of narrow screens (planning.css), where the panel
 * and its alert lie below the image the user is drawing on. Seen only: the alert says it to a screen reader.
 */
export function SafetyEcho({ lines }: { lines: readonly string[] }) {
  if (!lines.length) return null;
  return (
    <div className="mp-safety-echo" aria-hidden="true">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
