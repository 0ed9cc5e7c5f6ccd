import { startApp } from '@/app/start-app';
import { configureIconLoading } from '@/lib/blueprint-icons';
import { createI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { createPersistOptions } from '@/lib/query-persistence';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The app starts in tasks of its own: evaluating the code is one long task on a phone (some 110 ms at a quarter
// of a desktop's speed), and starting the app in it made it half as long again before a tap could be answered.
// Setting up the texts and starting the router are two more (together 60 ms in one task at 4× CPU slowdown).
setTimeout(() => {
  configureIconLoading();
  const i18n = createI18n();
  setTimeout(() => {
    void startApp(container, { queryClient: createQueryClient(), i18n, persistOptions: createPersistOptions() });
  }, 0);
}, 0);
