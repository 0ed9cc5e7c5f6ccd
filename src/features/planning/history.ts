/**
 * Undo and redo within a wizard step: the step's draft as a history of values. A drag previews its value on
 * every move without making an entry, and commits once when it ends, so one Ctrl+Z undoes the whole drag.
 * Pure; the step keeps one History in state.
 */
export interface History<T> {
  readonly past: readonly T[];
  readonly present: T;
  readonly future: readonly T[];
  /** The value before a preview began, while one is in progress. */
  readonly base: T | null;
}

/** Entries kept back: enough for a session's worth of small edits. */
export const HISTORY_LIMIT = 200;

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [], base: null });

/** Shows `value` (during a drag) without making an entry. */
export const preview = <T>(history: History<T>, value: T): History<T> => ({ ...history, present: value, base: history.base ?? history.present });

/** Makes `value` the present as one entry (ending a preview, if one is in progress). */
export function commit<T>(history: History<T>, value: T): History<T> {
  const before = history.base ?? history.present;
  if (Object.is(before, value)) return { ...history, present: value, base: null };
  return { past: [...history.past, before].slice(-HISTORY_LIMIT), present: value, future: [], base: null };
}

/** Undoes the last entry; during a preview, cancels the preview instead. */
export function undo<T>(history: History<T>): History<T> {
  if (history.base !== null) return { ...history, present: history.base, base: null };
  if (!history.past.length) return history;
  return { past: history.past.slice(0, -1), present: history.past[history.past.length - 1], future: [history.present, ...history.future], base: null };
}

export function redo<T>(history: History<T>): History<T> {
  if (history.base !== null || !history.future.length) return history;
  return { past: [...history.past, history.present], present: history.future[0], future: history.future.slice(1), base: null };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;
