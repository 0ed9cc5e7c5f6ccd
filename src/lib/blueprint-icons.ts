import { Icons, IconSize, type IconName, type IconPaths, type IconPathsLoader } from '@blueprintjs/icons';
import caretDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down';
import circle from '@blueprintjs/icons/lib/esm/generated/16px/paths/circle';
import cog from '@blueprintjs/icons/lib/esm/generated/16px/paths/cog';
import cross from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross';
import error from '@blueprintjs/icons/lib/esm/generated/16px/paths/error';
import logOut from '@blueprintjs/icons/lib/esm/generated/16px/paths/log-out';
import tickCircle from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle';
import time from '@blueprintjs/icons/lib/esm/generated/16px/paths/time';
import trash from '@blueprintjs/icons/lib/esm/generated/16px/paths/trash';
import user from '@blueprintjs/icons/lib/esm/generated/16px/paths/user';

/*
 * Blueprint's <Icon icon="name"> fetches its SVG paths through a loader whose default downloads every icon of
 * a size at once (two chunks of ~105 kB gzip, 16 px and 20 px). The app names a handful of icons, so their
 * 16 px paths are bundled instead (a few hundred bytes each). Blueprint's own components mostly draw their
 * icons from inline icon components and need no loader.
 */

/**
 * The 16 px paths of every icon that src/ names in an icon prop; blueprint-icons.test.ts keeps this list
 * equal to those names, so a new icon fails the test until it is added here.
 */
export const BUNDLED_ICONS: Partial<Record<IconName, IconPaths>> = {
  'caret-down': caretDown,
  circle,
  cog,
  cross,
  error,
  'log-out': logOut,
  'tick-circle': tickCircle,
  time,
  trash,
  user,
};

/**
 * Any other icon, or a bundled one at 20 px and more, still renders: Blueprint's default loader fetches it with
 * all other icons of its size. The warning tells a developer that the page just downloaded ~105 kB for it.
 */
async function loadUnbundledIcon(name: IconName, size: IconSize): Promise<IconPaths> {
  if (import.meta.env.DEV) {
    console.warn(`[blueprint-icons] '${name}' (${size} px) is not bundled: add it to BUNDLED_ICONS`);
  }
  const { splitPathsBySizeLoader } = await import('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader');
  return splitPathsBySizeLoader(name, size);
}

const loadIcon: IconPathsLoader = async (name, size) =>
  (size === IconSize.STANDARD ? BUNDLED_ICONS[name] : undefined) ?? loadUnbundledIcon(name, size);

/** Makes Blueprint's icons come from BUNDLED_ICONS. Call once, before the first render. */
export function configureIconLoading(): void {
  Icons.setLoaderOptions({ loader: loadIcon });
  // In Blueprint's cache before the first render, these icons draw at once rather than one render later.
  void Icons.load(Object.keys(BUNDLED_ICONS) as IconName[], IconSize.STANDARD);
}
