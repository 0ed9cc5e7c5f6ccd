import { Button, ButtonGroup, Classes, DialogBody, SegmentedControl } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetTreatment, useGetTreatmentImage } from '@generated/hooks/treatments/treatments';
import type { FundusImage } from '@generated/model/fundusImage';
import type { TreatmentSummary } from '@generated/model/treatmentSummary';
import { Dialog } from '@/components/dialog';
import { MarkFormDialog } from '@/components/fundus-marks/mark-form-dialog';
import { PreviousTreatmentPanel, PreviousTreatmentSvg, usePreviousTreatment } from '@/components/previous-treatment/previous-treatment';
import { DeleteMarkAlert, MarksList, MarksStatus, MarksSwitch, MarksToolbar } from '@/components/fundus-marks/marks-panel';
import { MarksOverlay } from '@/components/fundus-marks/marks-overlay';
import { useFundusMarks } from '@/components/fundus-marks/use-fundus-marks';
import { formatDate } from '@/lib/format';
import { useObjectUrl } from '@/lib/use-object-url';
import { bounded, cssTransform, IDENTITY, zoomAbout, ZOOM_STEP, type ViewTransform } from '@/lib/view-transform';
import { useViewportGestures, useWidth } from './viewport-gestures';
import './image-marks-dialog.css';

function ImageWithMarks({
  session,
  image,
  label,
  umPerPixel,
}: {
  session: TreatmentSummary;
  image: FundusImage;
  label: string;
  /** The plan's scale: set for the fundus image, which an earlier treatment is carried onto. */
  umPerPixel: number | null;
}) {
  const { t } = useTranslation(['patientCard', 'marks']);
  const previous = usePreviousTreatment(session.id);
  const [viewportRef, width] = useWidth<HTMLDivElement>();
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const marks = useFundusMarks({ treatmentId: session.id, image });
  const blob = useGetTreatmentImage(session.id, image.id, 'display', {
    query: { meta: { persist: false }, staleTime: Infinity },
  });
  const url = useObjectUrl(blob.data);
  const aspect = image.height / image.width;
  const shown = bounded(view, 1, aspect);
  const gestures = useViewportGestures(viewportRef, aspect, setView);
  const zoomButton = (factor: number) => setView((v) => zoomAbout(v, factor, 0.5, aspect / 2, 1, aspect));

  return (
    <div className="mp-image-marks">
      <div className="mp-image-marks-view" style={{ maxWidth: `calc((100vh - 260px) * ${image.width / image.height})` }}>
        <div className="mp-image-marks-bar">
          <MarksToolbar marks={marks} compact={width > 0 && width < 560} />
          {/* Pushes the zoom to the right also when there are no tools (a locked session). */}
          <span className="mp-image-marks-spacer" />
          <ButtonGroup>
            <Button icon="zoom-in" aria-label={t('comparison.zoomIn')} title={t('comparison.zoomIn')} onClick={() => zoomButton(ZOOM_STEP)} />
            <Button icon="zoom-out" aria-label={t('comparison.zoomOut')} title={t('comparison.zoomOut')} onClick={() => zoomButton(1 / ZOOM_STEP)} />
            <Button icon="zoom-to-fit" aria-label={t('comparison.reset')} title={t('comparison.reset')} onClick={() => setView(IDENTITY)} />
          </ButtonGroup>
        </div>
        <div
          ref={viewportRef}
          className="mp-compare-viewport"
          style={{ aspectRatio: `${image.width} / ${image.height}` }}
          tabIndex={0}
          role="group"
          aria-label={t('comparison.viewportLabel', { label })}
          aria-roledescription={t('comparison.viewportRole')}
          {...gestures}
        >
          <div className="mp-compare-layer" style={{ transform: cssTransform({ scale: shown.scale, x: shown.x * width, y: shown.y * width }) }}>
            {url ? (
              <>
                <img src={url} alt={label} draggable={false} />
                {umPerPixel !== null && previous.registered && previous.shown && (
                  <PreviousTreatmentSvg
                    previous={previous.registered}
                    width={image.width}
                    height={image.height}
                    umPerPixel={umPerPixel}
                    screenPxPerImagePx={(width * shown.scale) / image.width}
                  />
                )}
                <MarksOverlay marks={marks} screenPxPerImagePx={(width * shown.scale) / image.width} />
              </>
            ) : (
              <div className={`mp-compare-placeholder ${Classes.SKELETON}`} />
            )}
          </div>
        </div>
        <div className="mp-image-marks-foot">
          <MarksStatus marks={marks} />
          <MarksSwitch marks={marks} />
        </div>
        {umPerPixel !== null && <PreviousTreatmentPanel state={previous} />}
      </div>
      <MarksList marks={marks} />
      <MarkFormDialog marks={marks} />
      <DeleteMarkAlert marks={marks} />
    </div>
  );
}

/**
 * A session's fundus images, large, with their labelled marks and measurements (issue 17): zoom and pan as in
 * the comparison, tools to draw, the marks' list beside the image. Read-only on a locked session. On the fundus
 * image, the previous treatment of the eye (an earlier session's spots and zones) when there is one.
 */
export function ImageMarksDialog({ session, onClose }: { session: TreatmentSummary; onClose: () => void }) {
  const { t, i18n } = useTranslation('patientCard');
  const { data: full } = useGetTreatment(session.id);
  const images = full?.data.images ?? [];
  const [imageId, setImageId] = useState<string | null>(null);
  const image = images.find((candidate) => candidate.id === imageId) ?? images[0];
  const title = t('marksDialog.title', { number: session.number, date: formatDate(session.date, i18n.language) });
  return (
    <Dialog isOpen onClose={onClose} title={title} className="mp-dialog mp-image-marks-dialog">
      <DialogBody useOverflowScrollContainer={false}>
        {images.length > 1 && (
          <SegmentedControl
            className="mp-image-marks-images"
            aria-label={t('marksDialog.images')}
            value={image?.id}
            options={images.map((candidate) => ({ value: candidate.id, label: t(`marksDialog.roles.${candidate.role}`) }))}
            onValueChange={setImageId}
          />
        )}
        {image ? (
          <ImageWithMarks
            key={image.id}
            session={session}
            image={image}
            label={t('session.imageAlt', { number: session.number })}
            umPerPixel={image.role === 'fundus' ? (full?.data.plan.scale?.umPerPixel ?? null) : null}
          />
        ) : full ? (
          <p className="mp-muted-text">{t('comparison.noImage')}</p>
        ) : (
          <div className={`mp-compare-loading ${Classes.SKELETON}`} aria-hidden="true" />
        )}
      </DialogBody>
    </Dialog>
  );
}
