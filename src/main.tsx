import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { configureIconLoading } from '@/lib/blueprint-icons';
import { createI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { createPersistOptions } from '@/lib/query-persistence';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

configureIconLoading();
const queryClient = createQueryClient();
const i18n = createI18n();
const router = createAppRouter(queryClient);

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} i18n={i18n} persistOptions={createPersistOptions()}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
