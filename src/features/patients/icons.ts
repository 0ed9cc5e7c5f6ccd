import add from '@blueprintjs/icons/lib/esm/generated/16px/paths/add';
import caretDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down';
import chevronLeft from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left';
import chevronRight from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import upload from '@blueprintjs/icons/lib/esm/generated/16px/paths/upload';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the patient list names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  add,
  'caret-down': caretDown,
  'chevron-left': chevronLeft,
  'chevron-right': chevronRight,
  search,
  upload,
};
bundleIcons(ICONS);
