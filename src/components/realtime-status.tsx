import { useTranslation } from 'react-i18next';
import { useRealtimeState } from '@/lib/realtime';

/**
 * The realtime connection's state, unobtrusively: a small dot in the navbar (green: live; grey: connecting;
 * amber: lost, the screens refresh on their own; a grey ring: no realtime service configured, as on the mock), its meaning as a tooltip and for screen readers. A change
 * of state is not announced: nothing is lost either way.
 */
export function RealtimeStatus() {
  const { t } = useTranslation();
  const state = useRealtimeState();
  const text = t(`realtime.${state}`);
  return (
    <span className={`mp-realtime mp-realtime-${state}`} title={text} role="img" aria-label={text} data-state={state}>
      <span className="mp-realtime-dot" aria-hidden="true" />
    </span>
  );
}
