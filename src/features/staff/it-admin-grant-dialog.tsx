import { Button, Classes, FormGroup, InputGroup } from '@blueprintjs/core';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';

/**
 * The separate confirmation of IT admin rights (issue 27, defect 10): what the rights allow, who is told, and the
 * acting admin's own password. Stays open while the edit is saved, so a wrong password is shown here.
 */
export function ItAdminGrantDialog({
  name,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  /** The user to be granted the rights; the dialog is open while set. */
  name: string | undefined;
  pending: boolean;
  /** The server's word on the password (wrong, throttled). */
  error: string | undefined;
  onConfirm: (password: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('staff');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const messageId = useId();
  const shown = missing ? t('form.itAdminGrant.passwordRequired') : error;

  const close = () => {
    setPassword('');
    setMissing(false);
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setMissing(true);
    onConfirm(password);
  };

  return (
    <Dialog isOpen={name !== undefined} title={t('form.itAdminGrant.title', { name })} onClose={close} aria-describedby={messageId}>
      <form noValidate onSubmit={submit}>
        <div className={Classes.DIALOG_BODY}>
          <p id={messageId}>{t('form.itAdminGrant.message', { name })}</p>
          <FormGroup label={t('form.itAdminGrant.password')} labelFor={inputId} intent={shown ? 'danger' : 'none'}>
            <InputGroup
              id={inputId}
              type="password"
              autoComplete="current-password"
              autoFocus
              size="large"
              value={password}
              maxLength={128}
              intent={shown ? 'danger' : 'none'}
              aria-invalid={shown ? true : undefined}
              aria-describedby={shown ? errorId : undefined}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                setMissing(false);
              }}
            />
            {shown && (
              <div id={errorId} className={Classes.FORM_HELPER_TEXT}>
                {shown}
              </div>
            )}
          </FormGroup>
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button onClick={close} disabled={pending}>
              {t('cancel')}
            </Button>
            <Button type="submit" intent="danger" loading={pending}>
              {t('form.itAdminGrant.confirm')}
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
