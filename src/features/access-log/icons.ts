import cross from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross';
import download from '@blueprintjs/icons/lib/esm/generated/16px/paths/download';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the access log names (see src/lib/blueprint-icons.ts); the paging's are RangePaging's. */
export const ICONS = { cross, download };
bundleIcons(ICONS);
