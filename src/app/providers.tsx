import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import 'normalize.css/normalize.css';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@/styles/theme.css';

import { BlueprintProvider } from '@blueprintjs/core';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { type QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { type i18n as I18n } from 'i18next';
import { useEffect, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { redirectToSignIn, setUnauthorizedHandler } from '@/lib/api-client';
import { getToken } from '@/lib/auth-storage';
import { PERSIST_MAX_AGE, PERSIST_THROTTLE_MS, shouldPersistQuery } from '@/lib/query-client';

const PERSIST_KEY = 'macula-query-cache';
const TOKEN_KEY = 'token';

function createPersister() {
  let storage: Storage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    storage = undefined; // blocked storage: nothing is persisted
  }
  return createSyncStoragePersister({ storage, key: PERSIST_KEY, throttleTime: PERSIST_THROTTLE_MS });
}

/** Seed-spec §4: a 401 signs out (the api client clears the token), and so does a logout in another tab. */
function useSessionEnd(queryClient: QueryClient): void {
  useEffect(() => {
    setUnauthorizedHandler(() => {
      queryClient.clear();
      redirectToSignIn();
    });
    // Other tabs see their shared (remembered) token disappear from localStorage.
    const onStorage = (event: StorageEvent) => {
      if ((event.key === TOKEN_KEY || event.key === null) && !getToken()) {
        queryClient.clear();
        redirectToSignIn();
      }
    };
    window.addEventListener('storage', onStorage);
    return () => {
      setUnauthorizedHandler();
      window.removeEventListener('storage', onStorage);
    };
  }, [queryClient]);
}

export type AppProvidersProps = {
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
};

/** React Query (with the opt-in persisted cache of seed-spec §9), i18next and Blueprint. */
export function AppProviders({ queryClient, i18n, children }: AppProvidersProps) {
  const [persister] = useState(createPersister);
  useSessionEnd(queryClient);

  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={{
        persister,
        maxAge: PERSIST_MAX_AGE,
        dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
      }}
    >
      <I18nextProvider i18n={i18n}>
        <BlueprintProvider>{children}</BlueprintProvider>
      </I18nextProvider>
    </PersistQueryClientProvider>
  );
}
