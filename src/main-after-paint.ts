// The entry of the pages the server sends as HTML (scripts/prerender.mjs puts it in place of src/main.tsx):
// the page is there to read before any code runs, so the app's code is asked for only once the browser has
// painted it. On a slow line the page's stylesheet and fonts then have the line to themselves, instead of
// sharing it with some 220 kB of scripts that the first paint does not need.
import { afterFirstPaint } from '@/lib/after-first-paint';

void afterFirstPaint().then(() => import('./main'));
