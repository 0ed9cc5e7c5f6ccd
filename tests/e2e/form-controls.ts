import { expect, type Locator } from '@playwright/test';

/**
 * Ticks or clears a Blueprint checkbox with the keyboard: Blueprint draws its own box over the native
 * input, so a pointer click aimed at the input lands on that box (which Playwright refuses).
 */
export async function setCheckbox(checkbox: Locator, checked: boolean): Promise<void> {
  if ((await checkbox.isChecked()) !== checked) await checkbox.press('Space');
  await expect(checkbox).toBeChecked({ checked });
}

/** Chooses a Blueprint radio button with the keyboard (Space), for the same reason. */
export async function chooseRadio(radio: Locator): Promise<void> {
  await radio.focus();
  await radio.press('Space');
  await expect(radio).toBeChecked();
}
