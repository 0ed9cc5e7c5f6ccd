import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, commit, HISTORY_LIMIT, preview, redo, startHistory, undo } from './history';

describe('history of a step draft', () => {
  it('undoes and redoes committed values in order', () => {
    let h = startHistory(1);
    h = commit(h, 2);
    h = commit(h, 3);
    expect(h.present).toBe(3);
    h = undo(h);
    expect(h.present).toBe(2);
    h = undo(h);
    expect(h.present).toBe(1);
    expect(canUndo(h)).toBe(false);
    h = redo(h);
    expect(h.present).toBe(2);
    h = commit(h, 5);
    expect(canRedo(h)).toBe(false);
    expect(undo(h).present).toBe(2);
  });

  it('makes one entry for a whole drag, however many moves it previewed', () => {
    let h = startHistory('a');
    for (const value of ['b', 'c', 'd']) h = preview(h, value);
    expect(h.present).toBe('d');
    h = commit(h, 'e');
    expect(h.past).toEqual(['a']);
    expect(undo(h).present).toBe('a');
  });

  it('cancels a preview on undo instead of undoing an earlier entry', () => {
    let h = commit(startHistory(0), 1);
    h = preview(h, 7);
    h = undo(h);
    expect(h.present).toBe(1);
    expect(h.past).toEqual([0]);
  });

  it('makes no entry for a value that did not change', () => {
    const h = startHistory({ x: 1 });
    expect(commit(h, h.present).past).toHaveLength(0);
  });

  it('keeps at most HISTORY_LIMIT entries', () => {
    let h = startHistory(0);
    for (let value = 1; value <= HISTORY_LIMIT + 10; value++) h = commit(h, value);
    expect(h.past).toHaveLength(HISTORY_LIMIT);
  });

  it('returns to every earlier value by undo and back by redo (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 30 }), (values) => {
        let h = startHistory(-1);
        const seen = [-1];
        for (const value of values) {
          h = commit(h, value);
          if (!Object.is(value, seen[seen.length - 1])) seen.push(value);
        }
        for (let k = seen.length - 1; k >= 0; k--) {
          expect(h.present).toBe(seen[k]);
          h = undo(h);
        }
        for (let k = 1; k < seen.length; k++) {
          h = redo(h);
          expect(h.present).toBe(seen[k]);
        }
      }),
    );
  });
});
