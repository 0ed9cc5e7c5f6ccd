import { Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useListNotifications } from '@generated/hooks/notifications/notifications';
import { paths } from '@/config/paths';
import { useFallbackInterval } from '@/lib/realtime';
import './icons';

/** The layout's bell: the unread count (over all pages; counted again only while realtime is down), leading to /notifications. */
export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const { pathname } = useLocation();
  const refetchInterval = useFallbackInterval();
  const unread = useListNotifications({ perPage: 1, unread: true }, { query: { refetchInterval } }).data?.meta.unread ?? 0;
  const current = pathname === paths.notifications.path;
  return (
    <Link
      to={paths.notifications.getHref()}
      className={`mp-bell${current ? ' mp-bell-current' : ''}`}
      aria-current={current ? 'page' : undefined}
      aria-label={unread ? t('bellUnread', { count: unread }) : t('bell')}
      title={unread ? t('bellUnread', { count: unread }) : t('bell')}
    >
      <Icon icon="notifications" aria-hidden />
      {unread > 0 && (
        <span className="mp-bell-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
