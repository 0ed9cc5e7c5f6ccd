import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import type { CanvasHandle } from './fundus-viewer';
import { centralSpot, spotTowards, type DrawnSpot } from './plan-scene';

const DIRECTIONS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * Removing and restoring single spots by keyboard: the spot cursor is a handle on the canvas; arrows move it
 * to the next spot that way (Shift: five spots), Space or Enter removes or restores the spot under it.
 */
export function useSpotCursor(spots: readonly DrawnSpot[], toggle: (id: number) => void, enabled: boolean) {
  const { t, i18n } = useTranslation('planning');
  const [cursor, setCursor] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const current = spots.find((spot) => spot.id === cursor) ?? null;
  const handle: CanvasHandle | null =
    enabled && spots.length
      ? {
          id: 'spots',
          label: current
            ? t(current.enabled ? 'spots.cursorEnabled' : 'spots.cursorRemoved', { x: formatNumber(current.xUm, i18n.language), y: formatNumber(current.yUm, i18n.language) })
            : t('spots.cursor'),
          at: current ?? spots.find((spot) => spot.id === centralSpot(spots)) ?? spots[0],
        }
      : null;
  const onKey = (event: KeyboardEvent<HTMLButtonElement>): boolean => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const from = current?.id ?? centralSpot(spots);
    if (from === null) return false;
    const direction = DIRECTIONS[event.key];
    if (direction) {
      let id = from;
      for (let k = 0; k < (event.shiftKey ? 5 : 1); k++) {
        const next = spotTowards(spots, id, direction[0], direction[1]);
        if (next === null) break;
        id = next;
      }
      setCursor(id);
      return true;
    }
    if (event.key === ' ' || event.key === 'Enter') {
      setCursor(from);
      toggle(from);
      return true;
    }
    return false;
  };
  return {
    focusedSpot: focused ? (current?.id ?? centralSpot(spots)) : null,
    /** What the fundus viewer needs for the cursor: its handle, its keys, and a click on a spot. */
    viewerProps: {
      handles: handle ? [handle] : [],
      onHandleKey: (_id: string, event: KeyboardEvent<HTMLButtonElement>) => onKey(event),
      onHandleFocus: () => {
        setFocused(true);
        if (current === null) setCursor(centralSpot(spots));
      },
      onHandleBlur: () => setFocused(false),
      // A click on a spot also moves the cursor there.
      onSpot: (id: number) => {
        setCursor(id);
        toggle(id);
      },
    },
  };
}
