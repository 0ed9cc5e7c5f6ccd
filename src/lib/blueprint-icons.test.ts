import { Icons, IconSize } from '@blueprintjs/icons';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { splitPathsBySizeLoader } from '@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader';
import { BUNDLED_ICONS, configureIconLoading } from './blueprint-icons';

// Blueprint's default loader, which would download (here: transform) every icon of a size.
vi.mock('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader', () => ({
  splitPathsBySizeLoader: vi.fn(async () => ['M0 0h20v20H0z']),
}));

// The app's source, tests excluded: where icons are named.
const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

// An icon prop in JSX (icon="x", endIcon={a ? 'x' : 'y'}) or in an object (icon: 'x'); captures its value.
const ICON_PROP = /\b(?:icon|leftIcon|rightIcon|endIcon)(?:=("[^"]*"|\{[^{}]*\})|:\s*([^,\n}]*))/g;
const STRING_LITERAL = /'([^']*)'|"([^"]*)"/g;

/** The icon names in the icon props of `source`; other strings in those props are no icons. */
function iconsNamedIn(source: string): string[] {
  return [...source.matchAll(ICON_PROP)]
    .flatMap((prop) => [...(prop[1] ?? prop[2] ?? '').matchAll(STRING_LITERAL)])
    .map((literal) => literal[1] ?? literal[2] ?? '')
    .filter((name) => Icons.isValidIconName(name));
}

// Each folder's icons.ts (src/features/<f>/icons.ts, src/components/<c>/icons.ts).
const iconModules = import.meta.glob<{ ICONS: Record<string, unknown> }>('/src/**/icons.ts', { eager: true });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('configureIconLoading', () => {
  it('bundles exactly the icons that src/ names: a folder’s own in its icons.ts, the shell’s in BUNDLED_ICONS', () => {
    // The nearest icons.ts up the folder tree (below src/), else the shell's list.
    const bundlerOf = (file: string): string => {
      const parts = file.split('/').slice(0, -1);
      while (parts.length > 2) {
        const candidate = `${parts.join('/')}/icons.ts`;
        if (candidate in iconModules) return candidate;
        parts.pop();
      }
      return 'BUNDLED_ICONS';
    };
    const named = new Map<string, Set<string>>();
    for (const [file, source] of Object.entries(sources)) {
      for (const icon of iconsNamedIn(source)) {
        const bundler = bundlerOf(file);
        named.set(bundler, (named.get(bundler) ?? new Set()).add(icon));
      }
    }
    expect(named.size).toBeGreaterThan(1);
    const bundledBy = new Map<string, string[]>([
      ['BUNDLED_ICONS', Object.keys(BUNDLED_ICONS)],
      ...Object.entries(iconModules).map(([file, module]) => [file, Object.keys(module.ICONS)] as [string, string[]]),
    ]);
    for (const [bundler, icons] of bundledBy) {
      expect(icons.sort(), bundler).toEqual([...(named.get(bundler) ?? [])].sort());
    }
  });

  it('draws no <Icon> at 20 px or more, whose paths are not bundled', () => {
    const large = Object.entries(sources).flatMap(([file, source]) =>
      [...source.matchAll(/<Icon\b[^>]*\bsize=\{(\d+)\}/g)]
        .filter((match) => Number(match[1]) >= IconSize.LARGE)
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(large).toEqual([]);
  });

  it('puts the bundled paths into Blueprint’s cache before any icon renders', async () => {
    configureIconLoading();
    await vi.waitFor(() => {
      for (const [name, paths] of Object.entries(BUNDLED_ICONS)) {
        expect(Icons.getPaths(name as keyof typeof BUNDLED_ICONS, IconSize.STANDARD)).toBe(paths);
      }
    });
  });

  it('still loads an icon that is not bundled, through Blueprint’s default loader, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    configureIconLoading();
    await Icons.load('airplane', IconSize.LARGE);
    expect(splitPathsBySizeLoader).toHaveBeenCalledWith('airplane', IconSize.LARGE);
    expect(Icons.getPaths('airplane', IconSize.LARGE)).toEqual(['M0 0h20v20H0z']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("'airplane' (20 px) is not bundled"));
  });
});
