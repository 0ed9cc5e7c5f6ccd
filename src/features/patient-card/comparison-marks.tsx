import type { FundusImage } from '@generated/model/fundusImage';
import { MarksOverlay } from '@/components/fundus-marks/marks-overlay';
import { useFundusMarks } from '@/components/fundus-marks/use-fundus-marks';

/**
 * A compared session's marks over its image, read-only. Loaded with the first comparison shown, so that the
 * card's first paint does without the marks' code.
 */
export function ComparisonMarks({ treatmentId, image, screenPxPerImagePx }: { treatmentId: string; image: FundusImage; screenPxPerImagePx: number }) {
  const marks = useFundusMarks({ treatmentId, image, readOnly: true });
  return <MarksOverlay marks={marks} screenPxPerImagePx={screenPxPerImagePx} />;
}
