import notifications from '@blueprintjs/icons/lib/esm/generated/16px/paths/notifications';
import tick from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick';
import trash from '@blueprintjs/icons/lib/esm/generated/16px/paths/trash';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the notification centre names (see src/lib/blueprint-icons.ts). */
export const ICONS = { notifications, tick, trash };
bundleIcons(ICONS);
