import { act, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, getByLabel, renderRoutes, type } from '@/testing/render';
import { NumberField } from './number-field';

// The wizard's number field as the grid's spacing uses it (0.5–4 spot diameters, two decimals, steps of 0.05):
// what it takes, what it refuses and says so, and what it shows, in each UI language.
let taken: number[];

function Host({ initial }: { initial: number }) {
  const [value, setValue] = useState(initial);
  return (
    <NumberField
      label="Spacing"
      unit="×"
      digits={2}
      value={value}
      min={0.5}
      max={4}
      step={0.05}
      onChange={(next) => {
        taken.push(next);
        setValue(next);
      }}
    />
  );
}

async function render(language: UiLanguage, initial = 2) {
  taken = [];
  const { container } = await renderRoutes([{ path: '/', element: <Host initial={initial} /> }], { path: '/', language });
  const input = getByLabel(container, 'Spacing');
  const helper = () => container.querySelector('.bp6-form-helper-text')?.textContent ?? null;
  return { input, helper };
}

const key = (input: HTMLInputElement, name: string) =>
  act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
  });
const focus = (input: HTMLInputElement) => act(async () => input.focus());
const blur = (input: HTMLInputElement) => act(async () => input.blur());

afterEach(cleanup);

describe('a number field of the plan', () => {
  it('takes "2,5" in German as 2.5, never as 2 or 25', async () => {
    const { input, helper } = await render('de');
    expect(input.type).toBe('text');
    expect(input.inputMode).toBe('decimal');
    await focus(input);
    await type(input, '2,5');
    expect(taken.at(-1)).toBe(2.5);
    expect(helper()).toBeNull();
    await blur(input);
    expect(input.value).toBe('2,5');
    expect(input.getAttribute('aria-valuenow')).toBe('2.5');
  });

  it('refuses "2.5" in German with the reason and the value the plan keeps, also after leaving the field', async () => {
    const { input, helper } = await render('de');
    await focus(input);
    await type(input, '2.5');
    expect(taken).toEqual([]);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(helper()).toBe('Schreiben Sie Dezimalzahlen mit Komma und ohne Tausenderpunkte, z. B. 2,5. Im Plan gilt weiterhin 2 ×.');
    await blur(input);
    expect(input.value).toBe('2.5');
    expect(helper()).toContain('Komma');
    // Escape puts the plan's value back.
    await focus(input);
    await key(input, 'Escape');
    expect(input.value).toBe('2');
    expect(helper()).toBeNull();
  });

  it('refuses a German "1.234,5" and an English "2,5"', async () => {
    const german = await render('de');
    await type(german.input, '1.234,5');
    expect(german.helper()).toContain('ohne Tausenderpunkte');
    cleanup();
    const english = await render('en');
    await type(english.input, '2,5');
    expect(english.helper()).toBe('Write decimals with a point and without thousands separators, e.g. 2.5. The plan keeps 2 ×.');
    expect(taken).toEqual([]);
  });

  it('says what is out of range, in the language’s numbers', async () => {
    const { input, helper } = await render('de');
    await type(input, '4,5');
    expect(helper()).toBe('Geben Sie einen Wert von 0,5 bis 4 ein. Im Plan gilt weiterhin 2 ×.');
    await type(input, '2,555');
    expect(helper()).toContain('höchstens 2 Nachkommastellen');
    expect(taken).toEqual([]);
  });

  it('shows the plan’s value in the language’s format', async () => {
    expect((await render('de', 0.8)).input.value).toBe('0,8');
    cleanup();
    expect((await render('en', 0.8)).input.value).toBe('0.8');
  });

  it('steps with the arrow keys and Page Up/Down, within the range', async () => {
    const { input } = await render('de');
    await focus(input);
    await key(input, 'ArrowUp');
    expect(input.value).toBe('2,05');
    expect(taken.at(-1)).toBe(2.05);
    await key(input, 'ArrowDown');
    await key(input, 'ArrowDown');
    expect(input.value).toBe('1,95');
    await key(input, 'PageUp');
    expect(input.value).toBe('2,45');
    for (let k = 0; k < 5; k++) await key(input, 'PageUp');
    expect(input.value).toBe('4');
    expect(taken.at(-1)).toBe(4);
  });

  it('writes a number it took as the field writes it when left', async () => {
    const { input } = await render('de');
    await focus(input);
    await type(input, '3,');
    expect(taken.at(-1)).toBe(3);
    await blur(input);
    expect(input.value).toBe('3');
  });
});
