import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import 'normalize.css/normalize.css';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@/styles/theme.css';

import { BlueprintProvider } from '@blueprintjs/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { type i18n as I18n } from 'i18next';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { redirectToSignIn, setUnauthorizedHandler } from '@/lib/api-client';
import { getToken } from '@/lib/auth-storage';

// The auth token's storage key (seed-spec §3), watched for logouts in other tabs.
const TOKEN_KEY = 'token';

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

/** React Query, i18next and Blueprint, and what happens when the session ends. */
export function AppProviders({ queryClient, i18n, children }: AppProvidersProps) {
  useSessionEnd(queryClient);

  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <BlueprintProvider>{children}</BlueprintProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
