import annotation from '@blueprintjs/icons/lib/esm/generated/16px/paths/annotation';
import documentIcon from '@blueprintjs/icons/lib/esm/generated/16px/paths/document';
import download from '@blueprintjs/icons/lib/esm/generated/16px/paths/download';
import edit from '@blueprintjs/icons/lib/esm/generated/16px/paths/edit';
import issue from '@blueprintjs/icons/lib/esm/generated/16px/paths/issue';
import media from '@blueprintjs/icons/lib/esm/generated/16px/paths/media';
import trash from '@blueprintjs/icons/lib/esm/generated/16px/paths/trash';
import upload from '@blueprintjs/icons/lib/esm/generated/16px/paths/upload';
import zoomIn from '@blueprintjs/icons/lib/esm/generated/16px/paths/zoom-in';
import zoomOut from '@blueprintjs/icons/lib/esm/generated/16px/paths/zoom-out';
import zoomToFit from '@blueprintjs/icons/lib/esm/generated/16px/paths/zoom-to-fit';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the patient card names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  annotation,
  document: documentIcon,
  download,
  edit,
  issue,
  media,
  trash,
  upload,
  'zoom-in': zoomIn,
  'zoom-out': zoomOut,
  'zoom-to-fit': zoomToFit,
};
bundleIcons(ICONS);
