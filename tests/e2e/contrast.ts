// WCAG contrast between two CSS colours as the browser computes them ("rgb(r, g, b)" / "rgba(…)").
import { expect } from '@playwright/test';

function channels(color: string): [number, number, number] {
  const match = color.match(/rgba?\(([^)]+)\)/);
  expect(match, `a computed rgb() colour, not "${color}"`).not.toBeNull();
  const [r, g, b] = match![1].split(/[,\s/]+/).map(Number);
  return [r, g, b];
}

const luminance = (color: string): number => {
  const [r, g, b] = channels(color).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** The contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}
