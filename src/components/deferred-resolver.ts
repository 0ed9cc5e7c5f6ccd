import { useEffect } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';

/** A form resolver whose code loads on first use (or when `preload` is called). */
export type DeferredResolver<Input extends FieldValues, Output> = Resolver<Input, unknown, Output> & {
  preload: () => void;
};

/**
 * A react-hook-form resolver whose validation code — zod and the form's schema, about 25 kB gzip — is not
 * part of the page's first download: `load` imports it, once, when the page has shown (`useResolverPreload`)
 * or at the first validation, whichever comes first. A failed import is tried again at the next validation.
 */
export function deferredResolver<Input extends FieldValues, Output>(
  load: () => Promise<Resolver<Input, unknown, Output>>,
): DeferredResolver<Input, Output> {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) =>
    (await loaded())(values, context, options);
  return Object.assign(resolver, {
    preload: () => {
      loaded().catch(() => undefined);
    },
  });
}

/** Loads a deferred resolver's code once the page has rendered, so that the first validation waits for nothing. */
export function useResolverPreload(resolver: { preload: () => void }): void {
  useEffect(() => resolver.preload(), [resolver]);
}
