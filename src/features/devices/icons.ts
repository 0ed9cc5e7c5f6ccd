import add from '@blueprintjs/icons/lib/esm/generated/16px/paths/add';
import caretDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down';
import caretUp from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-up';
import duplicate from '@blueprintjs/icons/lib/esm/generated/16px/paths/duplicate';
import offline from '@blueprintjs/icons/lib/esm/generated/16px/paths/offline';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import tickCircle from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle';
import warningSign from '@blueprintjs/icons/lib/esm/generated/16px/paths/warning-sign';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the devices page and its dialogs name (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  add,
  'caret-down': caretDown,
  'caret-up': caretUp,
  duplicate,
  offline,
  search,
  'tick-circle': tickCircle,
  'warning-sign': warningSign,
};
bundleIcons(ICONS);
