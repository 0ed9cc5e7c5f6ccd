import download from '@blueprintjs/icons/lib/esm/generated/16px/paths/download';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the billing tab names (see src/lib/blueprint-icons.ts). */
export const ICONS = { download };
bundleIcons(ICONS);
