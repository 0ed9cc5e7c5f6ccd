import document from '@blueprintjs/icons/lib/esm/generated/16px/paths/document';
import download from '@blueprintjs/icons/lib/esm/generated/16px/paths/download';
import endorsed from '@blueprintjs/icons/lib/esm/generated/16px/paths/endorsed';
import history from '@blueprintjs/icons/lib/esm/generated/16px/paths/history';
import key from '@blueprintjs/icons/lib/esm/generated/16px/paths/key';
import redo from '@blueprintjs/icons/lib/esm/generated/16px/paths/redo';
import undo from '@blueprintjs/icons/lib/esm/generated/16px/paths/undo';
import zoomIn from '@blueprintjs/icons/lib/esm/generated/16px/paths/zoom-in';
import zoomOut from '@blueprintjs/icons/lib/esm/generated/16px/paths/zoom-out';
import zoomToFit from '@blueprintjs/icons/lib/esm/generated/16px/paths/zoom-to-fit';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the planning wizard names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  document,
  download,
  endorsed,
  history,
  key,
  redo,
  undo,
  'zoom-in': zoomIn,
  'zoom-out': zoomOut,
  'zoom-to-fit': zoomToFit,
};
bundleIcons(ICONS);
