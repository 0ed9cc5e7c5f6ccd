import { Button, Callout, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getListUsersQueryKey, getListUsersQueryOptions, useBulkUpdateUsers, useDeleteUsers } from '@generated/hooks/users/users';
import type { User } from '@generated/model/user';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { actionApplies, type StaffAction } from '@/domain/staff/lifecycle';
import { staffParams, type StaffScope, type StaffView } from './staff-view';
import type { Selection } from './use-staff-selection';

/** The contract's limit of ids per bulk call; a larger selection goes in several calls. */
const IDS_PER_CALL = 100;
/** Names shown in the confirmation before "and N more". */
const NAMES_SHOWN = 5;

const chunks = <T,>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/** The selected users: those picked, or every page of the list's filters (read afresh). */
function useSelectedUsers(scope: StaffScope, view: StaffView, selection: Selection) {
  const pages = selection.kind === 'all' ? Math.ceil(selection.total / IDS_PER_CALL) : 0;
  return useQueries({
    queries: Array.from({ length: pages }, (_, index) => ({
      ...getListUsersQueryOptions(staffParams(scope, view, index + 1, IDS_PER_CALL)),
      staleTime: 0,
    })),
    combine: (answers) => {
      if (selection.kind === 'some') return { users: [...selection.users.values()], pending: false, error: null };
      const users = new Map<string, User>();
      for (const answer of answers) for (const user of answer.data?.data ?? []) users.set(user.id, user);
      return {
        users: [...users.values()],
        pending: answers.some((answer) => answer.isPending),
        error: answers.find((answer) => answer.error)?.error ?? null,
      };
    },
  });
}

type BulkActionDialogProps = {
  action: StaffAction;
  scope: StaffScope;
  view: StaffView;
  selection: Selection;
  selfId: string;
  onClose: () => void;
  onDone: () => void;
};

/**
 * Confirms an action on the selection: how many users it touches (those whose status it fits; the rest are
 * named as left out), what it does and what cannot be undone; then applies it and confirms (a success message).
 */
export function BulkActionDialog({ action, scope, view, selection, selfId, onClose, onDone }: BulkActionDialogProps) {
  const { t } = useTranslation('staff');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const selected = useSelectedUsers(scope, view, selection);
  const [failure, setFailure] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const bulkUpdate = useBulkUpdateUsers();
  const remove = useDeleteUsers();

  const touched = selected.users.filter((user) => actionApplies(action, user, selfId));
  const skipped = selected.users.length - touched.length;
  const names = touched.slice(0, NAMES_SHOWN).map((user) => `${user.firstName} ${user.lastName}`);
  const permanent = t(`bulk.permanent.${action}`, { defaultValue: '' });

  async function apply() {
    setRunning(true);
    setFailure(null);
    let done = 0;
    try {
      for (const ids of chunks(touched.map((user) => user.id), IDS_PER_CALL)) {
        if (action === 'delete') await remove.mutateAsync({ data: { ids } });
        else await bulkUpdate.mutateAsync({ data: { ids, action } });
        done += ids.length;
      }
      notify({ intent: 'success', message: t(`bulk.done.${action}`, { count: done }) });
      onDone();
    } catch (error) {
      setFailure(done ? { partial: done, error } : { error });
    } finally {
      setRunning(false);
      await queryClient.invalidateQueries({ queryKey: getListUsersQueryKey() });
    }
  }

  const failed = failure as { partial?: number; error: unknown } | null;
  return (
    <Dialog isOpen onClose={running ? undefined : onClose} title={t(`bulk.title.${action}`)} className="mp-dialog">
      <DialogBody>
        {selected.pending ? (
          <div className="mp-dialog-loading">
            <Spinner size={20} aria-label={t('bulk.resolving')} />
            <span>{t('bulk.resolving')}</span>
          </div>
        ) : selected.error ? (
          <Callout intent="danger" role="alert">
            {failureMessage(selected.error)}
          </Callout>
        ) : touched.length === 0 ? (
          <p className="mp-dialog-text">{t(`bulk.none.${action}`)}</p>
        ) : (
          <>
            <p className="mp-dialog-text">
              <strong>{t(`bulk.question.${action}`, { count: touched.length })}</strong>
            </p>
            <p className="mp-dialog-text">
              {names.join(', ')}
              {touched.length > NAMES_SHOWN && ` ${t('bulk.andMore', { count: touched.length - NAMES_SHOWN })}`}
            </p>
            <p className="mp-dialog-text">{t(`bulk.effect.${action}`, { count: touched.length })}</p>
            {permanent && (
              <Callout intent="warning" className="mp-dialog-callout">
                {permanent}
              </Callout>
            )}
            {skipped > 0 && <p className="mp-dialog-text mp-muted-text">{t(`bulk.skipped.${action}`, { count: skipped })}</p>}
          </>
        )}
        {failed && (
          <Callout intent="danger" role="alert" className="mp-dialog-callout">
            {failed.partial ? `${t('bulk.partial', { count: failed.partial })} ` : ''}
            {failureMessage(failed.error)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} disabled={running}>
              {touched.length ? t('cancel') : t('close')}
            </Button>
            {touched.length > 0 && !failed && (
              <Button intent={action === 'delete' || action === 'deactivate' || action === 'archive' ? 'danger' : 'primary'} loading={running} onClick={() => void apply()}>
                {t(`bulk.confirm.${action}`, { count: touched.length })}
              </Button>
            )}
          </>
        }
      />
    </Dialog>
  );
}
