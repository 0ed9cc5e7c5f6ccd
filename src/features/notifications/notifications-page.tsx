import { Alert, Button, Card, Classes, SegmentedControl, Switch } from '@blueprintjs/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  getGetNotificationSettingsQueryKey,
  getListNotificationsQueryKey,
  useDeleteNotifications,
  useGetNotificationSettings,
  useListNotifications,
  useMarkNotificationsRead,
  useUpdateNotificationSettings,
} from '@generated/hooks/notifications/notifications';
import type { Notification } from '@generated/model/notification';
import type { NotificationSettings } from '@generated/model/notificationSettings';
import { useFailureMessage } from '@/components/form-fields';
import { RangePaging } from '@/components/list-table/list-table';
import { useNotify } from '@/components/notifications';
import { formatDateTime } from '@/lib/format';
import { useFallbackInterval } from '@/lib/realtime';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import './icons';
import './notifications.css';

const PER_PAGE = 20;
type Show = 'all' | 'unread';

/** `?page=2&show=unread`: anything else is the first page of all. */
function viewOf(params: URLSearchParams): { page: number; show: Show } {
  const page = Number(params.get('page'));
  return { page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1, show: params.get('show') === 'unread' ? 'unread' : 'all' };
}

/** Only the app's own paths are links (a notification names a screen of the app, never another site). */
const internalLink = (link: string | null | undefined) => (link && link.startsWith('/') && !link.startsWith('//') ? link : null);

function NotificationItem({ notification, onRead, onDelete, busy }: { notification: Notification; onRead: () => void; onDelete: () => void; busy: boolean }) {
  const { t, i18n } = useTranslation('notifications');
  const navigate = useNavigate();
  const titleId = useId();
  const link = internalLink(notification.link);
  const unread = !notification.read;
  return (
    <li className={`mp-inbox${unread ? ' mp-inbox-unread' : ''}`} aria-labelledby={titleId}>
      <span className="mp-inbox-dot" aria-hidden="true" />
      <div className="mp-inbox-body">
        <p className="mp-inbox-title" id={titleId}>
          <span className="mp-visually-hidden">{unread ? t('unread') : t('read')}: </span>
          {notification.title}
        </p>
        <p className="mp-inbox-message">{notification.message}</p>
        <time className="mp-inbox-time" dateTime={notification.createdAt}>
          {formatDateTime(notification.createdAt, i18n.language)}
        </time>
      </div>
      <div className="mp-inbox-actions">
        {link && (
          <Link
            to={link}
            className={`${Classes.BUTTON} ${Classes.SMALL}`}
            onClick={(event) => {
              // Opening it reads it.
              event.preventDefault();
              if (unread) onRead();
              void navigate(link);
            }}
          >
            {t('open')}
          </Link>
        )}
        {unread && (
          <Button size="small" icon="tick" onClick={onRead} disabled={busy} aria-describedby={titleId}>
            {t('markRead')}
          </Button>
        )}
        <Button size="small" variant="minimal" icon="trash" onClick={onDelete} disabled={busy} aria-label={`${t('delete')}: ${notification.title}`} />
      </div>
    </li>
  );
}

const SETTINGS: (keyof NotificationSettings)[] = ['system', 'teamMembers', 'patients', 'newsAndUpdates', 'notifyViaEmail'];

function SettingsForm({ saved }: { saved: NotificationSettings }) {
  const { t } = useTranslation('notifications');
  const profile = useSignedInProfile();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const queryClient = useQueryClient();
  const form = useForm<NotificationSettings>({ defaultValues: saved });
  const update = useUpdateNotificationSettings();
  const headingId = useId();
  const submit = form.handleSubmit(async (values) => {
    try {
      const answer = await update.mutateAsync({ data: values });
      queryClient.setQueryData(getGetNotificationSettingsQueryKey(), answer);
      form.reset(answer.data);
      notify({ intent: 'success', message: answer.message ?? t('settings.title') });
    } catch (error) {
      notify({ intent: 'danger', message: failureMessage(error), duration: 0 });
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} aria-labelledby={headingId} noValidate>
      <h2 className="mp-subtitle" id={headingId}>
        {t('settings.title')}
      </h2>
      <p className="mp-muted-text">{t('settings.intro')}</p>
      <div className="mp-inbox-settings">
        {SETTINGS.map((name) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <Switch
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                labelElement={
                  <span className="mp-inbox-setting">
                    <span className="mp-inbox-setting-name">{t(`settings.${name}`)}</span>
                    <span className="mp-muted-text mp-inbox-setting-help">{t(`settings.${name}Help`, { email: profile.email })}</span>
                  </span>
                }
                large
              />
            )}
          />
        ))}
      </div>
      <Button type="submit" intent="primary" loading={update.isPending} disabled={!form.formState.isDirty}>
        {t('settings.save')}
      </Button>
    </form>
  );
}

function NotificationSettingsCard() {
  const { t } = useTranslation('notifications');
  const query = useGetNotificationSettings();
  return (
    <Card className="mp-inbox-settings-card">
      {query.data ? (
        <SettingsForm saved={query.data.data} />
      ) : query.isError ? (
        <p role="alert" className="mp-field-error">
          {t('settings.loadFailed')}
        </p>
      ) : (
        <div className={`mp-inbox-settings-skeleton ${Classes.SKELETON}`} aria-hidden="true" />
      )}
    </Card>
  );
}

/** /notifications: the signed-in user's notifications (unread first), their state, and the settings. */
export function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const [params, setParams] = useSearchParams();
  const view = viewOf(params);
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const [askDeleteAll, setAskDeleteAll] = useState(false);
  const refetchInterval = useFallbackInterval();
  const query = useListNotifications(
    { page: view.page, perPage: PER_PAGE, ...(view.show === 'unread' ? { unread: true } : {}) },
    { query: { placeholderData: keepPreviousData, refetchInterval } },
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListNotificationsQueryKey() });
  const failed = (error: unknown) => notify({ intent: 'danger', message: failureMessage(error), duration: 0 });
  const markRead = useMarkNotificationsRead({ mutation: { onSettled: refresh, onError: failed } });
  const remove = useDeleteNotifications({ mutation: { onSettled: refresh, onError: failed } });
  const busy = markRead.isPending || remove.isPending;

  const show = (next: Partial<{ page: number; show: Show }>) => {
    const merged = { ...view, ...next };
    const search = new URLSearchParams();
    if (merged.page > 1) search.set('page', String(merged.page));
    if (merged.show === 'unread') search.set('show', 'unread');
    setParams(search);
  };

  const meta = query.data?.meta;
  const notifications = query.data?.data ?? [];
  // Past the last page (notifications read or deleted meanwhile): the last page there is.
  const beyond = meta && meta.total > 0 && view.page > meta.lastPage ? meta.lastPage : null;
  useEffect(() => {
    if (beyond !== null) show({ page: beyond });
  });

  return (
    <div className="mp-inbox-page">
      <div className="mp-page-header">
        <h1 className="mp-page-title">{t('title')}</h1>
        <div className="mp-page-actions">
          <Button icon="tick" disabled={!meta?.unread || busy} loading={markRead.isPending && !markRead.variables?.data} onClick={() => markRead.mutate({ data: {} })}>
            {t('markAllRead')}
          </Button>
          <Button icon="trash" disabled={!meta?.total || busy} onClick={() => setAskDeleteAll(true)}>
            {t('deleteAll')}
          </Button>
        </div>
      </div>
      <p className="mp-page-intro">{t('intro')}</p>
      <div className="mp-inbox-toolbar">
        <SegmentedControl
          aria-label={t('show')}
          options={[
            { value: 'all', label: t('all') },
            { value: 'unread', label: t('unreadOnly') },
          ]}
          value={view.show}
          onValueChange={(value) => show({ show: value as Show, page: 1 })}
        />
      </div>
      {query.isError && !query.data ? (
        <div role="alert" className="mp-card-problem">
          <p className="mp-field-error">{t('loadFailed')}</p>
          <Button onClick={() => void query.refetch()}>{t('retry')}</Button>
        </div>
      ) : (
        <div className={query.isFetching && query.isPlaceholderData ? 'mp-table-stale' : undefined} aria-busy={query.isFetching}>
          {!query.data ? (
            <ul className="mp-inbox-list" aria-hidden="true">
              {[0, 1, 2].map((row) => (
                <li key={row} className={`mp-inbox mp-inbox-skeleton ${Classes.SKELETON}`} />
              ))}
            </ul>
          ) : notifications.length === 0 ? (
            <p className="mp-inbox-empty">{view.show === 'unread' ? t('emptyUnread') : t('empty')}</p>
          ) : (
            <ul className="mp-inbox-list" aria-label={t('listLabel')}>
              {notifications.map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  busy={busy}
                  onRead={() => markRead.mutate({ data: { ids: [notification.id] } })}
                  onDelete={() => remove.mutate({ data: { ids: [notification.id] } })}
                />
              ))}
            </ul>
          )}
          {meta && meta.total > 0 && <RangePaging namespace="notifications" meta={meta} onPage={(page) => show({ page })} />}
        </div>
      )}
      <NotificationSettingsCard />
      <Alert
        isOpen={askDeleteAll}
        intent="danger"
        icon="trash"
        confirmButtonText={t('deleteAll')}
        cancelButtonText={t('cancel')}
        onCancel={() => setAskDeleteAll(false)}
        onConfirm={() => {
          setAskDeleteAll(false);
          remove.mutate({ data: {} });
        }}
      >
        <p className="mp-subtitle">{t('deleteAllQuestion')}</p>
        <p>{t('deleteAllText')}</p>
      </Alert>
    </div>
  );
}
