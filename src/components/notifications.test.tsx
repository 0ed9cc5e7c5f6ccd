// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, click, getByText, renderRoutes } from '@/testing/render';
import { NOTIFICATION_DURATION_MS, useNotify, type Notification } from './notifications';

let notify: (notification: Notification) => void;

function Notifier() {
  notify = useNotify();
  return <h1>Page</h1>;
}

const shown = () => [...document.querySelectorAll('.mp-notification')].map((item) => item.textContent);

async function show(notification: Notification): Promise<void> {
  await act(async () => notify(notification));
}

async function elapse(ms: number): Promise<void> {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  await renderRoutes([{ path: '/', Component: Notifier }], { path: '/' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('on-screen notifications', () => {
  it('shows title and message and disappears after 3000 ms', async () => {
    await show({ intent: 'success', title: 'Saved', message: 'Changes added successfully' });
    expect(shown()).toEqual(['SavedChanges added successfully']);

    await elapse(NOTIFICATION_DURATION_MS - 1);
    expect(shown()).toHaveLength(1);
    await elapse(1);
    expect(shown()).toEqual([]);
  });

  it('keeps a notification of duration 0 until "Close notification" is pressed', async () => {
    await show({ intent: 'danger', message: 'Error Uploading File', duration: 0 });
    await elapse(60_000);
    expect(shown()).toEqual(['Error Uploading File']);

    await click(getByText(document.body, 'button[aria-label="Close notification"]', ''));
    expect(shown()).toEqual([]);
  });

  it('announces errors as alerts and confirmations politely', async () => {
    await show({ intent: 'success', message: 'Invite sent' });
    await show({ intent: 'danger', message: 'Error Uploading File' });
    const region = document.querySelector('.mp-notifications');
    expect(region?.getAttribute('aria-live')).toBe('polite');
    expect(region?.getAttribute('aria-label')).toBe('Notifications');
    expect([...document.querySelectorAll('[role="alert"]')].map((alert) => alert.textContent)).toEqual([
      'Error Uploading File',
    ]);
  });

  it('holds a notification while the pointer is on it', async () => {
    await show({ intent: 'success', message: 'Patient added' });
    const item = document.querySelector('.mp-notification');
    await act(async () => {
      item?.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    });
    await elapse(10_000);
    expect(shown()).toEqual(['Patient added']);
    await act(async () => {
      item?.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
    });
    await elapse(NOTIFICATION_DURATION_MS);
    expect(shown()).toEqual([]);
  });

  it('closes each notification on its own timer', async () => {
    await show({ intent: 'success', message: 'first' });
    await elapse(2000);
    await show({ intent: 'success', message: 'second' });
    await elapse(1000);
    expect(shown()).toEqual(['second']);
    await elapse(2000);
    expect(shown()).toEqual([]);
  });

  it('shows the same words once: a repeat replaces the earlier one and has its full time', async () => {
    await show({ intent: 'success', message: 'Changes added successfully' });
    await show({ intent: 'success', message: 'Other' });
    await elapse(2000);
    await show({ intent: 'success', message: 'Changes added successfully' });
    expect(shown()).toEqual(['Other', 'Changes added successfully']);
    await elapse(1500);
    expect(shown()).toEqual(['Changes added successfully']);
    await elapse(1500);
    expect(shown()).toEqual([]);
  });
});
