import { Button, Callout, type Intent } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Seed-spec §9: on-screen notifications disappear after 3000 ms. */
export const NOTIFICATION_DURATION_MS = 3000;

export type Notification = {
  intent: Extract<Intent, 'success' | 'danger'>;
  /** Already translated. */
  title?: string;
  /** Already translated. */
  message?: string;
  /** Milliseconds on screen; 0 keeps the notification until it is closed (default 3000 ms). */
  duration?: number;
};

type ShownNotification = Notification & { id: number };

type Notify = (notification: Notification) => void;

const NotifyContext = createContext<Notify | null>(null);

/** Shows an on-screen notification: `notify({ intent: 'success', message: t('…') })`. */
export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('useNotify needs <NotificationsProvider> above it');
  return notify;
}

type NotificationItemProps = { notification: ShownNotification; onClose: (id: number) => void };

function NotificationItem({ notification, onClose }: NotificationItemProps) {
  const { t } = useTranslation();
  const { id, intent, title, message, duration = NOTIFICATION_DURATION_MS } = notification;
  // Hovering or focusing a notification holds it, so it can be read at any pace (WCAG 2.2.1).
  const [held, setHeld] = useState(false);

  useEffect(() => {
    if (duration <= 0 || held) return undefined;
    const timer = window.setTimeout(() => onClose(id), duration);
    return () => window.clearTimeout(timer);
  }, [duration, held, id, onClose]);

  return (
    <li
      className="mp-notification"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      {/* An error interrupts the screen reader; a confirmation waits its turn (the list is polite). */}
      <div role={intent === 'danger' ? 'alert' : undefined}>
        <Callout intent={intent} title={title} icon={intent === 'success' ? 'tick-circle' : 'error'} compact>
          <div className="mp-notification-body">
            {message && <p className="mp-notification-message">{message}</p>}
            <Button
              className="mp-notification-close"
              variant="minimal"
              size="small"
              icon="cross"
              aria-label={t('notifications.close')}
              onClick={() => onClose(id)}
            />
          </div>
        </Callout>
      </div>
    </li>
  );
}

/**
 * Holds the on-screen notifications and shows them in one live region, newest last.
 */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<ShownNotification[]>([]);
  const nextId = useRef(1);

  const notify = useCallback<Notify>((notification) => {
    const id = nextId.current++;
    // The same words again (a wizard's "Changes added successfully" after each step) replace the earlier
    // ones instead of stacking up over the page; the new one has its full time.
    const same = (item: Notification) => item.intent === notification.intent && item.title === notification.title && item.message === notification.message;
    setShown((current) => [...current.filter((item) => !same(item)), { ...notification, id }]);
  }, []);
  const close = useCallback((id: number) => setShown((current) => current.filter((item) => item.id !== id)), []);

  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <ul className="mp-notifications" aria-live="polite" aria-label={t('notifications.label')}>
        {shown.map((item) => (
          <NotificationItem key={item.id} notification={item} onClose={close} />
        ))}
      </ul>
    </NotifyContext.Provider>
  );
}
