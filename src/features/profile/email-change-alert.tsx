import { Alert } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Seed-spec §5: changing the e-mail address asks first, because once confirmed it signs the user out everywhere. Open
 * while `email` (the new address) is set; Escape cancels like the cancel button.
 */
export function EmailChangeAlert({
  email,
  onConfirm,
  onCancel,
}: {
  email: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('profile');
  const titleId = useId();
  const messageId = useId();
  return (
    // No icon: Alert draws it at 40 px, whose paths Blueprint would fetch with every other large icon (~105 kB).
    <Alert
      isOpen={email !== undefined}
      intent="primary"
      confirmButtonText={t('emailChange.confirm')}
      cancelButtonText={t('emailChange.cancel')}
      canEscapeKeyCancel
      onConfirm={onConfirm}
      onCancel={onCancel}
      aria-labelledby={titleId}
      aria-describedby={messageId}
    >
      <h2 id={titleId} className="mp-card-title">
        {t('emailChange.title')}
      </h2>
      <p id={messageId}>{t('emailChange.message', { email })}</p>
    </Alert>
  );
}
