import 'i18next';
import type { Catalogues } from '@/lib/i18n';

// Every t() key is checked against the English catalogues (the key source): a missing key is a type error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Catalogues;
  }
}
