import add from '@blueprintjs/icons/lib/esm/generated/16px/paths/add';
import chevronDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-down';
import chevronLeft from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left';
import chevronRight from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right';
import chevronUp from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-up';
import doubleCaretVertical from '@blueprintjs/icons/lib/esm/generated/16px/paths/double-caret-vertical';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import upload from '@blueprintjs/icons/lib/esm/generated/16px/paths/upload';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the patient list names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  add,
  'chevron-down': chevronDown,
  'chevron-left': chevronLeft,
  'chevron-right': chevronRight,
  'chevron-up': chevronUp,
  'double-caret-vertical': doubleCaretVertical,
  search,
  upload,
};
bundleIcons(ICONS);
