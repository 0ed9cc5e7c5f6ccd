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
 * The 16 px paths of the icons the shell names (src/app, src/lib and the shared components without an
 * `icons.ts` of their own). A feature's or component folder's icons come with its code, in its `icons.ts`
 * (`bundleIcons`), so the sign-in page carries none of them. blueprint-icons.test.ts checks that every icon a
 * file names is bundled by its folder's `icons.ts` or here.
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

const bundled: Partial<Record<IconName, IconPaths>> = { ...BUNDLED_ICONS };

const loadIcon: IconPathsLoader = async (name, size) =>
  (size === IconSize.STANDARD ? bundled[name] : undefined) ?? loadUnbundledIcon(name, size);

/**
 * Adds icons that arrive with a lazily loaded module (its `icons.ts`) and puts them into Blueprint's cache,
 * so that they draw at once when the module's components first render.
 */
export function bundleIcons(icons: Partial<Record<IconName, IconPaths>>): void {
  Object.assign(bundled, icons);
  // With our loader named, whether or not configureIconLoading has run yet.
  void Icons.load(Object.keys(icons) as IconName[], IconSize.STANDARD, { loader: loadIcon });
}

/** Makes Blueprint's icons come from the bundled ones. Call once, before the first render. */
export function configureIconLoading(): void {
  Icons.setLoaderOptions({ loader: loadIcon });
  // In Blueprint's cache before the first render, these icons draw at once rather than one render later.
  bundleIcons(BUNDLED_ICONS);
}
