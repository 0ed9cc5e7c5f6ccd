import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the admin patient lists name (see src/lib/blueprint-icons.ts). */
export const ICONS = { search };
bundleIcons(ICONS);
