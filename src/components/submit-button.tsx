import { Button, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useHydrated } from './use-hydrated';

/**
 * The form's primary button; Blueprint's own `loading` spinner is labelled in English only. It fills the
 * form's width unless it shares a row with other buttons (`fill={false}`).
 */
export function SubmitButton({ label, pending, fill = true }: { label: string; pending: boolean; fill?: boolean }) {
  const { t } = useTranslation('common');
  // Not before React has taken over a form that arrived as HTML (src/components/use-hydrated.ts).
  const hydrated = useHydrated();
  return (
    <Button
      type="submit"
      intent="primary"
      size="large"
      fill={fill}
      disabled={pending || !hydrated}
      aria-busy={pending}
      icon={pending ? <Spinner size={16} aria-label={t('loading')} /> : undefined}
    >
      {label}
    </Button>
  );
}
