/**
 * The previous treatment of an eye on today's fundus image (issue 17), as every screen shows it: the server's
 * answer (asked again while the registration runs), a switch to show or hide it with which session it was, and
 * an SVG of the earlier spots and zones for screens that show the image as an <img> (the card). The planner
 * draws the same on its canvas (src/features/planning/plan-canvas.ts).
 */
import { Callout, Spinner, Switch } from '@blueprintjs/core';
import { useEffect, useId, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetPreviousTreatment } from '@generated/hooks/planning/planning';
import type { PreviousTreatment } from '@generated/model/previousTreatment';
import { Select } from '@/components/select';
import { cssColour, PLAN_STYLE } from '@/domain/planning/plan-style';
import { formatDate, formatNumber } from '@/lib/format';
import { useRefetchInterval } from '@/lib/realtime';
import './previous-treatment.css';

const PREVIOUS = PLAN_STYLE.previous;
/** The switch's swatch: an earlier spot with its halo, as drawn. */
const SWATCH: CSSProperties = { borderColor: cssColour(PREVIOUS.stroke), background: cssColour(PREVIOUS.halo) };

/** While the earlier image is being registered (a few seconds), asked again this often without realtime. */
const PENDING_REFETCH_MS = 2000;

export interface PreviousTreatmentState {
  /** The server's answer (undefined while loading). */
  previous: PreviousTreatment | undefined;
  /** The answer when its spots can be drawn. */
  registered: PreviousTreatment | null;
  shown: boolean;
  setShown(shown: boolean): void;
  /** Shows another earlier session (one of `previous.earlierSessions`). */
  choose(earlierSessionId: string): void;
}

/**
 * The earlier session chosen per session being viewed, shared by every part of a screen that shows it (the
 * viewer's panel and the sign-off's overlap line ask for the same one); until a choice, the server's default.
 */
const chosen = new Map<string, string>();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function choose(treatmentId: string, earlierSessionId: string | undefined) {
  if (earlierSessionId === undefined) chosen.delete(treatmentId);
  else chosen.set(treatmentId, earlierSessionId);
  listeners.forEach((listener) => listener());
}

export function usePreviousTreatment(treatmentId: string): PreviousTreatmentState {
  const refetchInterval = useRefetchInterval(PENDING_REFETCH_MS);
  const earlierSessionId = useSyncExternalStore(subscribe, () => chosen.get(treatmentId));
  const query = useGetPreviousTreatment(treatmentId, earlierSessionId ? { earlierSessionId } : undefined, {
    query: { refetchInterval: (q) => refetchInterval(q.state.data?.data.state === 'pending') },
  });
  // A chosen session that is no longer an earlier planned one (deleted, or its grid undone): back to the default.
  const refused = earlierSessionId !== undefined && query.error?.response?.status === 422;
  useEffect(() => {
    if (refused) choose(treatmentId, undefined);
  }, [refused, treatmentId]);
  const previous = query.data?.data;
  const [shown, setShown] = useState(true);
  const registered = previous?.state === 'registered' && previous.registration ? previous : null;
  return { previous, registered, shown, setShown, choose: (id) => choose(treatmentId, id) };
}

/**
 * Which earlier session is on the image and how sure its placement is, with the switch; the count of today's
 * spots on earlier ones when given. Nothing when there is no earlier treatment.
 */
export function PreviousTreatmentPanel({ state, overSpots }: { state: PreviousTreatmentState; overSpots?: number }) {
  const { t, i18n } = useTranslation('previousTreatment');
  const { previous, shown, setShown } = state;
  if (!previous || previous.state === 'none' || !previous.session) return null;
  const session = previous.session;
  // A session the laser reported is named by the day it was treated, and its spots are the ones delivered.
  const context = session.treatedAt ? 'treated' : undefined;
  const name = t('session', { number: session.number, date: formatDate(session.treatedAt ?? session.date, i18n.language), context });
  const registration = previous.state === 'registered' ? previous.registration : null;
  return (
    <div className="mp-previous" role="group" aria-label={t('label')}>
      {previous.earlierSessions.length > 1 && <EarlierSessionChoice state={state} />}
      {registration ? (
        <>
          <Switch
            className="mp-previous-switch"
            checked={shown}
            onChange={(event) => setShown(event.currentTarget.checked)}
            labelElement={
              <>
                <span className="mp-previous-swatch" style={SWATCH} aria-hidden="true" />
                {t('show', { session: name })}
              </>
            }
          />
          <p className="mp-muted-text mp-previous-detail">
            {context ? t('reported') : session.signedOff ? t('signedOff') : t('notSignedOff')} ·{' '}
            {t('detail', {
              context,
              count: previous.spots.length,
              method: t(`method.${registration.method}`),
              uncertainty: formatNumber(registration.uncertaintyUm, i18n.language, 0),
            })}
          </p>
          {registration.method === 'landmarks' && <p className="mp-previous-detail">{t('rough')}</p>}
          {overSpots !== undefined && overSpots > 0 && (
            <Callout intent="warning" compact className="mp-previous-over" role="status">
              {t('over', { count: overSpots, session: session.number, context })}
            </Callout>
          )}
        </>
      ) : previous.state === 'pending' ? (
        <p className="mp-muted-text mp-previous-detail">
          <Spinner size={14} aria-hidden="true" /> {t('pending', { session: name })}
        </p>
      ) : (
        <p className="mp-muted-text mp-previous-detail">
          {t('failed', { session: name })} {previous.message}
        </p>
      )}
    </div>
  );
}

/** Which earlier session to show, when there is more than one: signed-off ones first, as the server lists them. */
function EarlierSessionChoice({ state }: { state: PreviousTreatmentState }) {
  const { t, i18n } = useTranslation('previousTreatment');
  const id = useId();
  const { previous } = state;
  if (!previous?.session) return null;
  return (
    <div className="mp-previous-choice">
      <label htmlFor={id}>{t('choose')}</label>
      <Select id={id} value={previous.session.id} onChange={(event) => state.choose(event.currentTarget.value)}>
        {previous.earlierSessions.map((session) => (
          <option key={session.id} value={session.id}>
            {t(session.treatedAt ? 'optionTreated' : session.signedOff ? 'optionSignedOff' : 'optionDraft', {
              number: session.number,
              date: formatDate(session.date, i18n.language),
              treatedOn: session.treatedAt && formatDate(session.treatedAt, i18n.language),
            })}
          </option>
        ))}
      </Select>
    </div>
  );
}

/**
 * The earlier spots (outlined, with a halo of the registration's uncertainty) and zones (dashed) over an image
 * shown as an <img>: an SVG in the image's pixels laid on it. `screenPxPerImagePx` keeps strokes a fixed width.
 */
export function PreviousTreatmentSvg({
  previous,
  width,
  height,
  umPerPixel,
  screenPxPerImagePx,
  style,
}: {
  previous: PreviousTreatment;
  /** Today's image, which the server carried the earlier spots onto. */
  width: number;
  height: number;
  umPerPixel: number;
  screenPxPerImagePx: number;
  style?: CSSProperties;
}) {
  const registration = previous.registration;
  if (!registration) return null;
  const unit = screenPxPerImagePx > 0 ? 1 / screenPxPerImagePx : 1;
  const r = (previous.spotDiameterPx ?? 0) / 2;
  const halo = r + registration.uncertaintyUm / umPerPixel;
  return (
    <svg className="mp-previous-svg" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" style={style}>
      {/* Overlapping halos are one area: the group is made translucent as a whole, not circle by circle. */}
      <g className="mp-previous-halo" fill={PREVIOUS.halo.colour} opacity={PREVIOUS.halo.alpha}>
        {previous.spots.map((spot, index) => (
          <circle key={index} cx={spot.x} cy={spot.y} r={halo} />
        ))}
      </g>
      <g className="mp-previous-spots" fill="none" stroke={cssColour(PREVIOUS.stroke)} strokeWidth={PREVIOUS.widthPx * unit}>
        {previous.spots.map((spot, index) => (
          <circle key={index} cx={spot.x} cy={spot.y} r={r} />
        ))}
      </g>
      <g
        className="mp-previous-zones"
        fill="none"
        stroke={cssColour(PREVIOUS.stroke)}
        strokeWidth={PREVIOUS.widthPx * unit}
        strokeDasharray={`${PREVIOUS.zoneDashPx[0] * unit} ${PREVIOUS.zoneDashPx[1] * unit}`}
      >
        {previous.exclusionZones.map((zone) => (
          <ellipse
            key={zone.kind}
            cx={zone.center.x}
            cy={zone.center.y}
            rx={zone.radiusXPx}
            ry={zone.radiusYPx}
            transform={`rotate(${zone.rotationDeg} ${zone.center.x} ${zone.center.y})`}
          />
        ))}
      </g>
    </svg>
  );
}
