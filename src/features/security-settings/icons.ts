import cross from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross';
import disable from '@blueprintjs/icons/lib/esm/generated/16px/paths/disable';
import key from '@blueprintjs/icons/lib/esm/generated/16px/paths/key';
import reset from '@blueprintjs/icons/lib/esm/generated/16px/paths/reset';
import search from '@blueprintjs/icons/lib/esm/generated/16px/paths/search';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the security settings name (see src/lib/blueprint-icons.ts). */
export const ICONS = { cross, disable, key, reset, search };
bundleIcons(ICONS);
