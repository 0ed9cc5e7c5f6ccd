import { Button, Classes, DialogBody } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListTreatmentAudit } from '@generated/hooks/planning/planning';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { formatDateTime } from '@/lib/format';

/**
 * The plan's audit trail (every change, who made it and when, in a sentence in the reader's language),
 * newest first, in a dialog (Blueprint's Drawer has no dialog role): read when opened, never from an old copy.
 */
export function ChangeHistory({ treatmentId }: { treatmentId: string }) {
  const { t, i18n } = useTranslation('planning');
  const failureMessage = useFailureMessage();
  const [open, setOpen] = useState(false);
  const audit = useListTreatmentAudit(treatmentId, { query: { enabled: open, staleTime: 0, meta: { persist: false } } });
  const entries = [...(audit.data?.data ?? [])].reverse();
  return (
    <>
      <Button icon="history" variant="minimal" onClick={() => setOpen(true)}>
        {t('history.open')}
      </Button>
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={t('history.title')} className="mp-history">
        {/* No scroll box of its own (a box that scrolls must take the focus): the overlay scrolls. */}
        <DialogBody useOverflowScrollContainer={false}>
          {audit.isPending && <p className={Classes.SKELETON}>{t('history.loading')}</p>}
          {audit.isError && <p role="alert">{failureMessage(audit.error)}</p>}
          <ol className="mp-history-list">
            {entries.map((entry) => (
              <li key={entry.id}>
                <p className="mp-history-meta">
                  <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
                  {' · '}
                  {entry.by ? entry.by.name : t('history.system')}
                </p>
                <p>{entry.summary}</p>
              </li>
            ))}
          </ol>
        </DialogBody>
      </Dialog>
    </>
  );
}
