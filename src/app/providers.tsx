import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import 'normalize.css/normalize.css';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@/styles/theme.css';

import { BlueprintProvider } from '@blueprintjs/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { type i18n as I18n } from 'i18next';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { NotificationsProvider } from '@/components/notifications';
import { redirectToSignIn, setUnauthorizedHandler } from '@/lib/api-client';
import { endSession, onLogoutInOtherTab } from '@/lib/session';

/**
 * Seed-spec §4: a 401 signs out (the api client has cleared the token; the caches and the other tabs follow), and
 * so does a logout in another tab.
 */
function useSessionEnd(queryClient: QueryClient): void {
  useEffect(() => {
    setUnauthorizedHandler(({ sessionEnded }) => {
      if (sessionEnded) endSession(queryClient);
      redirectToSignIn();
    });
    const stopListening = onLogoutInOtherTab(() => {
      endSession(queryClient, { tellOtherTabs: false });
      redirectToSignIn();
    });
    return () => {
      setUnauthorizedHandler();
      stopListening();
    };
  }, [queryClient]);
}

export type AppProvidersProps = {
  queryClient: QueryClient;
  i18n: I18n;
  /** Keeps the query cache in browser storage (the app); tests leave it out. */
  persistOptions?: Omit<PersistQueryClientOptions, 'queryClient'>;
  children: ReactNode;
};

/** React Query, i18next, Blueprint and on-screen notifications, and what happens when the session ends. */
export function AppProviders({ queryClient, i18n, persistOptions, children }: AppProvidersProps) {
  useSessionEnd(queryClient);

  const content = (
    <I18nextProvider i18n={i18n}>
      <BlueprintProvider>
        <NotificationsProvider>{children}</NotificationsProvider>
      </BlueprintProvider>
    </I18nextProvider>
  );
  return persistOptions ? (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      // The stored copy paints at once but may be up to a second old (throttled writes) or from before a
      // change in another tab: everything restored is asked for again.
      onSuccess={() => void queryClient.invalidateQueries()}
    >
      {content}
    </PersistQueryClientProvider>
  ) : (
    <QueryClientProvider client={queryClient}>{content}</QueryClientProvider>
  );
}
