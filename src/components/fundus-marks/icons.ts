import arrowsHorizontal from '@blueprintjs/icons/lib/esm/generated/16px/paths/arrows-horizontal';
import circle from '@blueprintjs/icons/lib/esm/generated/16px/paths/circle';
import hand from '@blueprintjs/icons/lib/esm/generated/16px/paths/hand';
import mapMarker from '@blueprintjs/icons/lib/esm/generated/16px/paths/map-marker';
import polygonFilter from '@blueprintjs/icons/lib/esm/generated/16px/paths/polygon-filter';
import tagAdd from '@blueprintjs/icons/lib/esm/generated/16px/paths/tag-add';
import trash from '@blueprintjs/icons/lib/esm/generated/16px/paths/trash';
import { bundleIcons } from '@/lib/blueprint-icons';

/** The icons the marks layer names (see src/lib/blueprint-icons.ts). */
export const ICONS = {
  'arrows-horizontal': arrowsHorizontal,
  circle,
  hand,
  'map-marker': mapMarker,
  'polygon-filter': polygonFilter,
  'tag-add': tagAdd,
  trash,
};
bundleIcons(ICONS);
