import { Button, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** The form's primary button; Blueprint's own `loading` spinner is labelled in English only. */
export function SubmitButton({ label, pending }: { label: string; pending: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Button
      type="submit"
      intent="primary"
      size="large"
      fill
      disabled={pending}
      aria-busy={pending}
      icon={pending ? <Spinner size={16} aria-label={t('loading')} /> : undefined}
    >
      {label}
    </Button>
  );
}
