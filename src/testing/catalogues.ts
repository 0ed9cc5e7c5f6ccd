import type { Resource } from 'i18next';

/**
 * Every catalogue of locales/, for tests: an i18n instance made with these renders any page at once, without
 * the on-demand loading of the app (src/lib/i18n.ts).
 */
const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' });

export const ALL_CATALOGUES: Resource = {};
for (const [file, catalogue] of Object.entries(files)) {
  const [, language, namespace] = /\/locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
  if (language && namespace) (ALL_CATALOGUES[language] ??= {})[namespace] = catalogue;
}
