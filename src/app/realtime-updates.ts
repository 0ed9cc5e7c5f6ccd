/**
 * Screens that update themselves: a signed-in clinic user listens on their clinic's channel and their own,
 * and each event invalidates the generated query keys of what it names (src/app/realtime-invalidation.ts), so
 * whatever screen shows it refetches. After realtime was down, everything on screen is fetched again (events may have been missed);
 * while it is down, the screens that show changing things refetch on their own (`useRefetchInterval`, `useFallbackInterval`).
 */
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { authorizeBroadcasting, useGetRealtimeSettings } from '@generated/hooks/realtime/realtime';
import type { Profile } from '@generated/model/profile';
import { channelName, parseRealtimeEvent } from '@/domain/realtime/events';
import { getApiBaseUrl } from '@/lib/runtime-config';
import { getToken } from '@/lib/auth-storage';
import { connectRealtime, onRealtimeState, realtimeState } from '@/lib/realtime';
import { areaOfRole } from '@/lib/roles';

let invalidation: Promise<typeof import('./realtime-invalidation')> | null = null;
/** The stale keys of the events that arrive within this long are refetched together. */
const COALESCE_MS = 250;

/** Connects while a clinic user is signed in (the layout's lifetime); disconnects at logout. */
export function useRealtimeUpdates(profile: Profile): void {
  const queryClient = useQueryClient();
  // The clinic's staff; other roles have no clinic screens and no channels.
  const clinicUser = areaOfRole(profile.role) !== undefined;
  const settings = useGetRealtimeSettings({ query: { enabled: clinicUser, staleTime: Infinity, gcTime: Infinity } }).data?.data;

  useEffect(() => {
    if (!settings) return;
    const pending = new Map<string, QueryKey>();
    let flush: ReturnType<typeof setTimeout> | null = null;
    const disconnect = connectRealtime({
      settings,
      apiBaseUrl: getApiBaseUrl(),
      token: getToken(),
      channels: [channelName('clinic', profile.clinicId), channelName('user', profile.id)],
      authorize: (socketId, channel) => authorizeBroadcasting({ socket_id: socketId, channel_name: channel }),
      onEvent: (_channel, name, data) => {
        const event = parseRealtimeEvent(name, data);
        if (!event) return;
        invalidation ??= import('./realtime-invalidation');
        void invalidation.then(({ staleQueryKeys, invalidate }) => {
          for (const key of staleQueryKeys(event, profile)) pending.set(JSON.stringify(key), key);
          // Events come in bursts (an upload: the patient, the session, processing): one refetch per burst.
          flush ??= setTimeout(() => {
            flush = null;
            invalidate(queryClient, [...pending.values()]);
            pending.clear();
          }, COALESCE_MS);
        });
      },
    });
    return () => {
      disconnect();
      if (flush) clearTimeout(flush);
    };
    // The profile's ids, not the object: a refetched profile of the same user keeps the connection.
  }, [settings, profile.id, profile.clinicId, queryClient]);

  // Back after a drop: what happened meanwhile was not announced, so what is on screen is asked for again.
  const seen = useRef({ connected: false, dropped: false });
  useEffect(
    () =>
      onRealtimeState(() => {
        const now = seen.current;
        if (realtimeState() !== 'connected') {
          if (now.connected) now.dropped = true;
          return;
        }
        if (now.dropped) void queryClient.invalidateQueries({ type: 'active' });
        now.connected = true;
        now.dropped = false;
      }),
    [queryClient],
  );
}
