import { Button, ButtonGroup, Callout, Card, Classes, HTMLTable, Switch } from '@blueprintjs/core';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useComparePatientTreatments } from '@generated/hooks/patients/patients';
import { useGetTreatment, useGetTreatmentImage } from '@generated/hooks/treatments/treatments';
import type { ComparisonSide } from '@generated/model/comparisonSide';
import type { LaserSettings } from '@generated/model/laserSettings';
import { useFailureMessage } from '@/components/form-fields';
import { formatDate } from '@/lib/format';
import { useObjectUrl } from '@/lib/use-object-url';
import { bounded, cssTransform, IDENTITY, zoomAbout, ZOOM_STEP, type ViewTransform } from '@/lib/view-transform';
import { PlanOverlay } from './plan-overlay';
import { useViewportGestures, useWidth } from './viewport-gestures';

const ComparisonMarks = lazy(async () => ({ default: (await import('./comparison-marks')).ComparisonMarks }));

type PaneProps = {
  side: ComparisonSide;
  view: ViewTransform;
  onView: (change: (view: ViewTransform) => ViewTransform) => void;
  showMarks: boolean;
};

/** One side: the session's fundus image with its plan and marks, shown through the shared view. */
function ComparisonPane({ side, view, onView, showMarks }: PaneProps) {
  const { t, i18n } = useTranslation('patientCard');
  const [paneRef, width] = useWidth<HTMLDivElement>();
  const { data: full } = useGetTreatment(side.treatment.id);
  const image = full?.data.images[0];
  const blob = useGetTreatmentImage(side.treatment.id, image?.id ?? '', 'display', {
    query: { enabled: Boolean(image), meta: { persist: false }, staleTime: Infinity },
  });
  const url = useObjectUrl(blob.data);
  const aspect = image ? image.height / image.width : 0.75;
  // The shared view in this pane's own bounds (the two images may differ in shape).
  const shown = bounded(view, 1, aspect);
  const label = t('comparison.imageLabel', { number: side.treatment.number, date: formatDate(side.treatment.date, i18n.language) });
  const gestures = useViewportGestures(paneRef, aspect, onView);

  return (
    <figure className="mp-compare-pane">
      <figcaption>{label}</figcaption>
      <div
        ref={paneRef}
        className="mp-compare-viewport"
        style={{ aspectRatio: image ? `${image.width} / ${image.height}` : '4 / 3' }}
        tabIndex={0}
        role="group"
        aria-label={t('comparison.viewportLabel', { label })}
        aria-roledescription={t('comparison.viewportRole')}
        {...gestures}
      >
        <div
          className="mp-compare-layer"
          data-testid="comparison-layer"
          style={{ transform: cssTransform({ scale: shown.scale, x: shown.x * width, y: shown.y * width }) }}
        >
          {url && image ? (
            <>
              <img src={url} alt={label} draggable={false} />
              <svg viewBox={`0 0 ${image.width} ${image.height}`} aria-hidden="true">
                <PlanOverlay plan={side.plan} spotSizeUm={side.laserSettings?.spotSizeUm} screenPxPerImagePx={(width * shown.scale) / image.width} />
              </svg>
              {showMarks && (
                <Suspense fallback={null}>
                  <ComparisonMarks treatmentId={side.treatment.id} image={image} screenPxPerImagePx={(width * shown.scale) / image.width} />
                </Suspense>
              )}
            </>
          ) : (
            <div className={`mp-compare-placeholder ${image || !full ? Classes.SKELETON : ''}`}>
              {full && !image && t('comparison.noImage')}
            </div>
          )}
        </div>
      </div>
    </figure>
  );
}

type DifferenceRow = { label: string; first: string; second: string; difference?: string };

function useDifferenceRows(first: ComparisonSide, second: ComparisonSide, differences: { totalSpots: number; laserDose?: number | null; brightness?: number | null; daysBetween: number }): DifferenceRow[] {
  const { t, i18n } = useTranslation('patientCard');
  const number = (value: number | null | undefined, digits = 0) =>
    value === null || value === undefined ? '—' : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
  // A difference with its sign (a typographic minus, not a hyphen; none on zero) and, where it has one, its unit.
  const signed = (value: number | null | undefined, digits = 0, unit = '') => {
    if (value === null || value === undefined) return '—';
    const text = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits, signDisplay: 'exceptZero' }).format(value).replace('-', '\u2212');
    return unit ? `${text} ${unit}` : text;
  };
  const setting = (side: ComparisonSide, key: keyof LaserSettings): string => {
    const value = side.laserSettings?.[key];
    if (value === null || value === undefined) return '—';
    if (key === 'laserMode') return t(`settings.laserModes.${value as 'micropulse' | 'continuous'}`);
    if (key === 'iolStatus') return t(`settings.iolStatuses.${value as 'phakic' | 'pseudophakic' | 'aphakic'}`);
    if (key === 'spotSpacing') return t('settings.spacingValue', { value: number(value as number, 2) });
    const unit = { spotSizeUm: 'µm', pulseDurationMs: 'ms', laserDose: 'mW', dutyCyclePercent: '%' }[key];
    return `${number(value as number, 2)} ${unit}`;
  };
  const rows: DifferenceRow[] = [
    { label: t('comparison.date'), first: formatDate(first.treatment.date, i18n.language), second: formatDate(second.treatment.date, i18n.language), difference: t('comparison.days', { count: differences.daysBetween }) },
    { label: t('settings.totalSpots'), first: number(first.treatment.totalSpots), second: number(second.treatment.totalSpots), difference: signed(differences.totalSpots) },
    { label: t('settings.laserPower'), first: setting(first, 'laserDose'), second: setting(second, 'laserDose'), difference: signed(differences.laserDose, 1, 'mW') },
    { label: t('settings.brightness'), first: number(first.treatment.brightness, 2), second: number(second.treatment.brightness, 2), difference: signed(differences.brightness, 2) },
    { label: t('settings.spotSize'), first: setting(first, 'spotSizeUm'), second: setting(second, 'spotSizeUm') },
    { label: t('settings.spacing'), first: setting(first, 'spotSpacing'), second: setting(second, 'spotSpacing') },
    { label: t('settings.pulseDuration'), first: setting(first, 'pulseDurationMs'), second: setting(second, 'pulseDurationMs') },
    { label: t('settings.laserMode'), first: setting(first, 'laserMode'), second: setting(second, 'laserMode') },
    { label: t('settings.iolStatus'), first: setting(first, 'iolStatus'), second: setting(second, 'iolStatus') },
  ];
  // Settings without an arithmetic difference still say when they differ, so no change hides in the table.
  return rows.map((row) => ({ ...row, difference: row.difference ?? (row.first === row.second ? undefined : t('comparison.differs')) }));
}

function DifferenceTable({ first, second, differences }: { first: ComparisonSide; second: ComparisonSide; differences: Parameters<typeof useDifferenceRows>[2] }) {
  const { t } = useTranslation('patientCard');
  const rows = useDifferenceRows(first, second, differences);
  return (
    <HTMLTable compact className="mp-difference-table">
      <caption className="mp-visually-hidden">{t('comparison.tableCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('comparison.parameter')}</th>
          <th scope="col">{t('comparison.sessionNumber', { number: first.treatment.number })}</th>
          <th scope="col">{t('comparison.sessionNumber', { number: second.treatment.number })}</th>
          <th scope="col">{t('comparison.difference')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{row.first}</td>
            <td>{row.second}</td>
            <td>{row.difference ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/**
 * Session comparison (patient card): two sessions' fundus images side by side, zoomed and panned together,
 * with their plans drawn over them, and how their parameters differ.
 */
export function SessionComparison({ patientId, first, second }: { patientId: string; first: string; second: string }) {
  const { t } = useTranslation('patientCard');
  const failureMessage = useFailureMessage();
  const titleId = useId();
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const [showMarks, setShowMarks] = useState(true);
  const comparison = useComparePatientTreatments(patientId, { first, second });
  const data = comparison.data?.data;
  // One view for both panes; each pane fits it into its own image's shape when it draws.
  const onView = (change: (view: ViewTransform) => ViewTransform) => setView(change);
  // The buttons zoom about the middle of a 4:3 fundus image (the panes bound the result to their own shape).
  const zoomButton = (factor: number) => onView((v) => zoomAbout(v, factor, 0.5, 0.375, 1, 0.75));

  return (
    <Card className="mp-card-section" role="region" aria-labelledby={titleId}>
      <div className="mp-section-header">
        <h2 id={titleId} className="mp-card-title">
          {t('comparison.title')}
        </h2>
        <ButtonGroup>
          <Button icon="zoom-in" aria-label={t('comparison.zoomIn')} title={t('comparison.zoomIn')} onClick={() => zoomButton(ZOOM_STEP)} />
          <Button icon="zoom-out" aria-label={t('comparison.zoomOut')} title={t('comparison.zoomOut')} onClick={() => zoomButton(1 / ZOOM_STEP)} />
          <Button icon="zoom-to-fit" onClick={() => setView(IDENTITY)}>
            {t('comparison.reset')}
          </Button>
        </ButtonGroup>
        <Switch className="mp-compare-marks-switch" checked={showMarks} label={t('comparison.showMarks')} onChange={(event) => setShowMarks(event.currentTarget.checked)} />
      </div>
      <p className="mp-muted-text">{t('comparison.hint')}</p>
      {comparison.isError && (
        <Callout intent="danger" role="alert">
          {failureMessage(comparison.error)}
        </Callout>
      )}
      {data ? (
        <>
          <div className="mp-compare-panes">
            <ComparisonPane side={data.first} view={view} onView={onView} showMarks={showMarks} />
            <ComparisonPane side={data.second} view={view} onView={onView} showMarks={showMarks} />
          </div>
          <DifferenceTable first={data.first} second={data.second} differences={data.differences} />
        </>
      ) : (
        !comparison.isError && <div className={`mp-compare-loading ${Classes.SKELETON}`} aria-hidden="true" />
      )}
    </Card>
  );
}
