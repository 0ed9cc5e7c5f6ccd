// The part of postcss-filter-rules (0.8, which ships no types) that vite.config.ts uses.
declare module 'postcss-filter-rules' {
  import type { PluginCreator } from 'postcss';

  interface Options {
    /** Called for each selector of a rule: true keeps it; a rule without selectors left is removed. */
    filter?: (selector: string, parts: string[]) => boolean;
  }

  const filterRules: PluginCreator<Options>;
  export default filterRules;
}
