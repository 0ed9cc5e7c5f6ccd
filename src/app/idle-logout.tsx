import { Button, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import { Dialog } from '@/components/dialog';
import { useSignOut } from '@/features/auth/use-sign-out';
import { readStorage, writeStorage } from '@/lib/auth-storage';
import { idlePhase, LAST_ACTIVITY_KEY, latestActivity, type IdlePhase } from './idle-timer';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'mousemove', 'scroll'] as const;
const TICK_MS = 1000;
// Other tabs learn of activity through storage; writing it more often than this gains nothing.
const SHARE_EVERY_MS = 5000;

/**
 * Tracks user activity in this tab (and, through localStorage, in the other tabs) and reports the idle phase
 * once a second. While active, the server hears from the client at least every half interval, so a user who
 * works without saving is not signed out by the server's own idle check.
 */
function useIdlePhase(idleMs: number): { phase: IdlePhase; stayActive: () => void } {
  const queryClient = useQueryClient();
  const lastActivity = useRef(Date.now());
  const lastShared = useRef(0);
  const lastServerContact = useRef(Date.now());
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' });

  const stayActive = useCallback(() => {
    const now = Date.now();
    lastActivity.current = now;
    if (now - lastShared.current >= SHARE_EVERY_MS) {
      lastShared.current = now;
      writeStorage('localStorage', LAST_ACTIVITY_KEY, String(now));
    }
    if (now - lastServerContact.current >= idleMs / 2) {
      lastServerContact.current = now;
      void queryClient.invalidateQueries({ queryKey: getGetProfileQueryKey() });
    }
    setPhase({ phase: 'active' });
  }, [idleMs, queryClient]);

  useEffect(() => {
    // While the warning shows, only its button keeps the session: a stray mouse move must not.
    const onActivity = () => {
      if (phase.phase === 'active') stayActive();
    };
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true });
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity);
    };
  }, [phase.phase, stayActive]);

  useEffect(() => {
    const timer = window.setInterval(() => {
      lastActivity.current = latestActivity(lastActivity.current, readStorage('localStorage', LAST_ACTIVITY_KEY));
      setPhase(idlePhase(Date.now(), lastActivity.current, idleMs));
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [idleMs]);

  return { phase, stayActive };
}

/**
 * Idle logout (issue 4, docs/security.md): after the clinic's interval without activity the user is signed out,
 * with a warning shortly before that offers to stay; the sign-in page then tells them why.
 */
export function IdleLogout({ idleSeconds }: { idleSeconds: number }) {
  const { t } = useTranslation();
  const { signOut, signOutIdle } = useSignOut();
  const { phase, stayActive } = useIdlePhase(idleSeconds * 1000);
  const expired = phase.phase === 'expired';
  const signedOut = useRef(false);

  useEffect(() => {
    if (!expired || signedOut.current) return;
    signedOut.current = true;
    // /sign-in says why (a notification would be gone, or cover the form, by the time the user comes back).
    signOutIdle();
  }, [expired, signOutIdle]);

  return (
    <Dialog
      isOpen={phase.phase === 'warning'}
      title={t('idleLogout.title')}
      icon="time"
      onClose={stayActive}
      canOutsideClickClose={false}
    >
      <DialogBody>
        <p>{t('idleLogout.message', { seconds: phase.phase === 'warning' ? phase.secondsLeft : 0 })}</p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={signOut}>{t('idleLogout.logoutNow')}</Button>
            <Button intent="primary" onClick={stayActive} autoFocus>
              {t('idleLogout.stay')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
