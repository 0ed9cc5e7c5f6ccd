import chevronLeft from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left';
import chevronRight from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons of a list's paging (see src/lib/blueprint-icons.ts). */
export const ICONS = { 'chevron-left': chevronLeft, 'chevron-right': chevronRight };
bundleIcons(ICONS);
