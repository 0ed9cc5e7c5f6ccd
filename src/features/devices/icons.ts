import offline from '@blueprintjs/icons/lib/esm/generated/16px/paths/offline';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import tickCircle from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle';
import warningSign from '@blueprintjs/icons/lib/esm/generated/16px/paths/warning-sign';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the devices page names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  offline,
  search,
  'tick-circle': tickCircle,
  'warning-sign': warningSign,
};
bundleIcons(ICONS);
