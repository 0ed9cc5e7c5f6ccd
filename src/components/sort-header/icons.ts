import chevronDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-down';
import chevronUp from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-up';
import doubleCaretVertical from '@blueprintjs/icons/lib/esm/generated/16px/paths/double-caret-vertical';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons of a sorting column header (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  'chevron-down': chevronDown,
  'chevron-up': chevronUp,
  'double-caret-vertical': doubleCaretVertical,
};
bundleIcons(ICONS);
