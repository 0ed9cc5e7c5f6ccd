import { createPortal } from 'react-dom';
import type { FundusImage } from '@generated/model/fundusImage';
import { MarkFormDialog } from '@/components/fundus-marks/mark-form-dialog';
import { MarksOverlay } from '@/components/fundus-marks/marks-overlay';
import { DeleteMarkAlert, MarksList, MarksStatus, MarksSwitch, MarksToolbar } from '@/components/fundus-marks/marks-panel';
import { useFundusMarks } from '@/components/fundus-marks/use-fundus-marks';
import { cssTransform, type ViewTransform } from '@/lib/view-transform';

type ViewerMarksProps = {
  treatmentId: string;
  image: FundusImage;
  /** The viewer's view (screen pixels) and how many screen pixels an image pixel takes at it. */
  view: ViewTransform;
  screenScale: number;
  /** Where the tools go in the viewer's toolbar, and the layer over the canvas the marks are drawn in. */
  toolbarSlot: HTMLElement | null;
  frameSlot: HTMLElement | null;
};

/**
 * The image's labelled marks in the wizard (issue 17): the tools in the viewer's toolbar, the marks as an SVG
 * over the canvas with the canvas's own transform (so they move with every pan and zoom), their live figures
 * and list under the viewer. Rendered beside the frame, not in it, so that keys typed in the label form never
 * reach the frame's zoom keys; the tools and the drawing are portals into the viewer's slots. Loaded when the
 * viewer first shows, so the wizard's first paint does without it.
 */
export function ViewerMarks({ treatmentId, image, view, screenScale, toolbarSlot, frameSlot }: ViewerMarksProps) {
  const marks = useFundusMarks({ treatmentId, image });
  return (
    <>
      {toolbarSlot &&
        createPortal(
          <>
            <MarksToolbar marks={marks} compact />
            <MarksSwitch marks={marks} />
          </>,
          toolbarSlot,
        )}
      {frameSlot &&
        screenScale > 0 &&
        createPortal(<MarksOverlay marks={marks} screenPxPerImagePx={screenScale} style={{ transform: cssTransform(view), transformOrigin: '0 0' }} />, frameSlot)}
      <div className="mp-viewer-marks-panel">
        <MarksStatus marks={marks} quietWithoutTool />
        <MarksList marks={marks} headingLevel={3} />
      </div>
      <MarkFormDialog marks={marks} />
      <DeleteMarkAlert marks={marks} />
    </>
  );
}
