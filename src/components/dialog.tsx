/**
 * Blueprint's Dialog without its English: Blueprint names a dialog's × button "Close" whatever the UI language
 * (hard-coded in @blueprintjs/core 6). The title bar is drawn here as Blueprint draws it, the × named in the
 * user's language.
 */
import { Button, Classes, Dialog as BlueprintDialog, H2, Icon, type DialogProps } from '@blueprintjs/core';
import { IconSize, SmallCrossIcon } from '@blueprintjs/icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function Dialog({ title, titleTagName: Title = H2, icon, isCloseButtonShown, onClose, children, ...props }: DialogProps) {
  const { t } = useTranslation('common');
  const titleId = useId();
  return (
    <BlueprintDialog {...props} onClose={onClose} aria-labelledby={props['aria-labelledby'] ?? (title != null ? titleId : undefined)}>
      {title != null && (
        <div className={Classes.DIALOG_HEADER}>
          <Icon icon={icon} size={IconSize.STANDARD} aria-hidden tabIndex={-1} />
          <Title id={titleId}>{title}</Title>
          {isCloseButtonShown !== false && (
            <Button aria-label={t('dialog.close')} className={Classes.DIALOG_CLOSE_BUTTON} icon={<SmallCrossIcon size={IconSize.STANDARD} />} onClick={onClose} variant="minimal" />
          )}
        </div>
      )}
      {children}
    </BlueprintDialog>
  );
}
