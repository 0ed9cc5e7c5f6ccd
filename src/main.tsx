import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { config as configureZod } from 'zod/v4/core';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { configureIconLoading } from '@/lib/blueprint-icons';
import { createI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { createPersistOptions } from '@/lib/query-persistence';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The server's Content-Security-Policy forbids eval: zod must not probe for it (each probe is a CSP
// violation in the console) and validates without compiled functions instead.
configureZod({ jitless: true });
configureIconLoading();
const queryClient = createQueryClient();
const i18n = createI18n();
const router = createAppRouter();

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} i18n={i18n} persistOptions={createPersistOptions()}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
