import { describe, expect, it } from 'vitest';
import { nextMenuIndex } from './menu-keyboard';

describe('nextMenuIndex', () => {
  it.each([
    ['ArrowDown', -1, 3, 0],
    ['ArrowDown', 0, 3, 1],
    ['ArrowDown', 2, 3, 0],
    ['ArrowUp', 0, 3, 2],
    ['ArrowUp', -1, 3, 2],
    ['ArrowUp', 2, 3, 1],
    ['Home', 2, 3, 0],
    ['End', 0, 3, 2],
  ])('%s from %i of %i items goes to %i', (key, current, count, next) => {
    expect(nextMenuIndex(key, current, count)).toBe(next);
  });

  it('ignores other keys and empty menus', () => {
    expect(nextMenuIndex('Tab', 0, 3)).toBeUndefined();
    expect(nextMenuIndex('ArrowDown', -1, 0)).toBeUndefined();
  });
});
