// Measuring tests wait for the layout to settle: fonts loaded, and the boxes of all the elements compared,
// read together in one frame, unchanged over two animation frames. Boxes read one after another
// (locator.boundingBox() per element) can straddle a late render, and compare two different layouts.
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export type Box = { x: number; y: number; width: number; height: number };

/** The boxes of `locators` (each one element) in one and the same settled layout. */
export async function settledBoxes(page: Page, ...locators: Locator[]): Promise<Box[]> {
  const handles = await Promise.all(locators.map((locator) => locator.elementHandle()));
  let boxes: Box[] = [];
  await expect
    .poll(
      async () => {
        const [before, after] = await page.evaluate(async (elements) => {
          await document.fonts.ready;
          const read = () =>
            elements.map((element) => {
              const { x, y, width, height } = element!.getBoundingClientRect();
              return { x, y, width, height };
            });
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const first = read();
          await frame();
          return [first, read()];
        }, handles);
        boxes = after;
        return JSON.stringify(before) === JSON.stringify(after);
      },
      { message: 'the layout settles' },
    )
    .toBe(true);
  await Promise.all(handles.map((handle) => handle?.dispose()));
  return boxes;
}

/** The vertical gap from the bottom of `upper` to the top of `lower`, in one settled layout. */
export async function verticalGap(page: Page, upper: Locator, lower: Locator): Promise<number> {
  const [above, below] = await settledBoxes(page, upper, lower);
  return below.y - (above.y + above.height);
}
