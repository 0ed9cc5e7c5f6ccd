/** The longest wait for a paint: a tab opened in the background paints only when it is shown. */
const AT_MOST_MS = 1_000;

/**
 * Resolves once the browser has painted the document (the task after the next animation frame: a frame's
 * callbacks run before its paint), or after a second where no frame comes.
 */
export function afterFirstPaint(win: Pick<Window, 'requestAnimationFrame' | 'setTimeout'> = window): Promise<void> {
  return new Promise((resolve) => {
    win.requestAnimationFrame(() => win.setTimeout(resolve, 0));
    win.setTimeout(resolve, AT_MOST_MS);
  });
}
