import type { Intent } from '@blueprintjs/core';
import type { InviteStatus } from '@generated/model/inviteStatus';
import type { User } from '@generated/model/user';
import type { UserStatus } from '@generated/model/userStatus';
import { useTranslation } from 'react-i18next';
import { StatusTag } from '@/components/plan-status-tag';
import { formatDateTime } from '@/lib/format';

const STATUS_INTENT: Record<UserStatus, Intent> = {
  active: 'success',
  pending: 'primary',
  invite_expired: 'warning',
  deactivated: 'danger',
  creation_in_progress: 'none',
  archived: 'none',
  archiving: 'none',
  deleting: 'danger',
};

const INVITE_INTENT: Record<InviteStatus, Intent> = {
  accepted: 'success',
  pending: 'primary',
  invite_expired: 'warning',
  creation_in_progress: 'none',
};

/** A user's status with its label (one per status value), e.g. "Invite expired". */
export function UserStatusTag({ status }: { status: UserStatus }) {
  const { t } = useTranslation('staff');
  return (
    <StatusTag intent={STATUS_INTENT[status]}>{t(`status.${status}`)}</StatusTag>
  );
}

/** The invite's status, with the expiry of an open link. */
export function InviteStatusTag({ user }: { user: Pick<User, 'inviteStatus' | 'inviteExpiresAt'> }) {
  const { t, i18n } = useTranslation('staff');
  return (
    <span className="mp-invite-status">
      <StatusTag intent={INVITE_INTENT[user.inviteStatus]}>{t(`inviteStatus.${user.inviteStatus}`)}</StatusTag>
      {user.inviteStatus === 'pending' && user.inviteExpiresAt && (
        <span className="mp-muted-text">{t('inviteExpires', { date: formatDateTime(user.inviteExpiresAt, i18n.language) })}</span>
      )}
    </span>
  );
}
