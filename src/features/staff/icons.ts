import chevronLeft from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left';
import envelope from '@blueprintjs/icons/lib/esm/generated/16px/paths/envelope';
import newPerson from '@blueprintjs/icons/lib/esm/generated/16px/paths/new-person';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import trash from '@blueprintjs/icons/lib/esm/generated/16px/paths/trash';
import user from '@blueprintjs/icons/lib/esm/generated/16px/paths/user';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the staff screens name (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  'chevron-left': chevronLeft,
  envelope,
  'new-person': newPerson,
  search,
  trash,
  user,
};
bundleIcons(ICONS);
