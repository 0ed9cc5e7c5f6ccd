/**
 * What the signed-in layout asks for besides the page (msw handlers for jsdom tests): no unread
 * notifications for the bell, and realtime refused (403), so that no test opens a websocket.
 */
import { http, HttpResponse } from 'msw';
import { getListNotificationsMockHandler } from '@generated/hooks/notifications/notifications.msw';

export const layoutHandlers = () => [
  getListNotificationsMockHandler({ status: 'Success', data: [], meta: { page: 1, perPage: 1, total: 0, lastPage: 1, unread: 0 } }),
  http.get('*/realtime/settings', () => HttpResponse.json({ status: 'Error', message: 'Forbidden' }, { status: 403 })),
];
