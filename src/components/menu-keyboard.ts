import type { KeyboardEvent } from 'react';

/** The items of a Blueprint menu that can take the focus, in order. */
export function menuItemsOf(menu: HTMLElement): HTMLElement[] {
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter(
    (item) => item.getAttribute('aria-disabled') !== 'true',
  );
}

/**
 * Index of the item a key moves to (WAI-ARIA menu pattern): down and up wrap around, Home and End go to the
 * ends; undefined for any other key. `current` is -1 when no item has the focus.
 */
export function nextMenuIndex(key: string, current: number, count: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowUp':
      return current <= 0 ? count - 1 : current - 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/**
 * Arrow keys, Home and End for a Blueprint <Menu> (which moves by Tab only): put on the menu's onKeyDown.
 * Enter and Space are Blueprint's own (they click the item); Escape closes the popover.
 */
export function onMenuKeyDown(event: KeyboardEvent<HTMLElement>): void {
  const items = menuItemsOf(event.currentTarget);
  const next = nextMenuIndex(event.key, items.indexOf(document.activeElement as HTMLElement), items.length);
  if (next === undefined) return;
  event.preventDefault();
  items[next].focus();
}

/** For a popover's onOpened: the first item takes the focus, so the arrow keys work at once. */
export function focusFirstMenuItem(popover: HTMLElement): void {
  menuItemsOf(popover)[0]?.focus();
}
