import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from './after-first-paint';

describe('afterFirstPaint', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] }));
  afterEach(() => vi.useRealTimers());

  it('resolves in the task after the next animation frame, not before it', async () => {
    let done = false;
    void afterFirstPaint().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    await vi.advanceTimersToNextFrame();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('resolves after a second where no frame comes (a tab in the background)', async () => {
    const noFrames = { requestAnimationFrame: () => 0, setTimeout: window.setTimeout.bind(window) };
    let done = false;
    void afterFirstPaint(noFrames).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
