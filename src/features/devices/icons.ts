import chevronLeft from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left';
import chevronRight from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right';
import offline from '@blueprintjs/icons/lib/esm/generated/16px/paths/offline';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import tickCircle from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the devices page names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  'chevron-left': chevronLeft,
  'chevron-right': chevronRight,
  offline,
  search,
  'tick-circle': tickCircle,
};
bundleIcons(ICONS);
