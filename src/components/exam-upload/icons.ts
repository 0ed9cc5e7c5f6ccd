import folderOpen from '@blueprintjs/icons/lib/esm/generated/16px/paths/folder-open';
import upload from '@blueprintjs/icons/lib/esm/generated/16px/paths/upload';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the upload dialog names (see src/lib/blueprint-icons.ts). */
export const ICONS = { 'folder-open': folderOpen, upload };
bundleIcons(ICONS);
