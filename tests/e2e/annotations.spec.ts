// Labelling and measuring on a session's fundus image (issue 17), from the patient card: a physician marks a
// point and an area and measures with the ruler (live figures, then the server's, with the scale's source), and
// measures once more with a ruler saved without a label ("No label"), the marks come back after a reload; a nurse adds a label of the clinic's own and marks with it; once the session is
// locked the marks are read-only and the tools are gone. Each test uploads its own exam, so no other journey's
// marks show up.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { AnnotationList } from '../../generated/model/annotationList';
import type { Treatment } from '../../generated/model/treatment';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, examFile, uniqueTag, uploadedSession } from './patients';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

async function marksOf(api: APIRequestContext, treatment: Treatment): Promise<AnnotationList> {
  const response = await api.get(`/api/treatments/${treatment.id}/images/${treatment.images[0].id}/annotations`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: AnnotationList }).data;
}

/** The card of the session's patient, its image-and-marks dialog opened. */
async function openMarks(page: Page, texts: Texts, treatment: Treatment): Promise<Locator> {
  await page.goto(`/physician/patient-card?patientId=${treatment.patientId}`);
  const session = page.getByRole('article').first();
  // The session's details (and with them its image) arrive after the list: the button waits for them.
  await expect(session.getByRole('img', { name: fill(texts.patientCard.session.imageAlt, { number: 1 }) })).toBeVisible({ timeout: 10_000 });
  await session.getByRole('button', { name: texts.patientCard.session.imageAndMarks }).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('group', { name: new RegExp(fill(texts.patientCard.session.imageAlt, { number: 1 })) }) });
  await expect(dialog.getByRole('img', { name: fill(texts.patientCard.session.imageAlt, { number: 1 }) })).toBeVisible();
  await expect(dialog.getByText(texts.marks.loading)).toHaveCount(0);
  return dialog;
}

/** A point of the image's viewport in page pixels, from fractions of its width and height. */
async function spot(dialog: Locator, fx: number, fy: number) {
  const box = (await dialog.getByTestId('marks-overlay').boundingBox())!;
  return { x: box.x + box.width * fx, y: box.y + box.height * fy };
}

async function clickAt(page: Page, dialog: Locator, fx: number, fy: number) {
  const { x, y } = await spot(dialog, fx, fy);
  await page.mouse.click(x, y);
}

/** Labels the mark just drawn (the form opens when it is finished, titled for a ruler as such) and saves it. */
async function labelMark(page: Page, texts: Texts, label: string, note?: string, title = texts.marks.form.newTitle) {
  const form = page.getByRole('dialog', { name: title });
  await form.getByLabel(texts.marks.form.label).selectOption({ label });
  if (note) await form.getByLabel(texts.marks.form.note).fill(note);
  await form.getByRole('button', { name: texts.marks.form.save }).click();
  await expect(form).toHaveCount(0);
}

const numberIn = (lang: string, value: number, digits = 0) =>
  new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: digits }).format(value);

test('a physician labels a point and an area and measures with the ruler; the marks stay after a reload', async ({ page, staff, texts, playwright, lang }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const treatment = await uploadedSession(api, await examFile({ name: 'Greta', secondName: uniqueTag() }));
  const marks = texts.marks;
  const label = (key: string) => texts.api[`annotation_label.default.${key}` as keyof Texts['api']] as string;
  const labels = Object.fromEntries(['microaneurysm', 'haemorrhage', 'oedema_area', 'other'].map((key) => [key, label(key)]));
  await signInToHome(page, texts, physician);
  let dialog = await openMarks(page, texts, treatment);
  await expect(dialog.getByText(marks.empty)).toBeVisible();
  await expectNoAxeViolations(page);

  // A point: one click.
  await dialog.getByRole('button', { name: marks.tools.point }).click();
  await clickAt(page, dialog, 0.3, 0.4);
  await labelMark(page, texts, labels.microaneurysm, 'Temporal to the fovea.');
  const list = dialog.getByRole('list');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText(fill(marks.item, { number: 1, label: labels.microaneurysm }));
  await expect(list.getByRole('listitem').first()).toContainText('Temporal to the fovea.');

  // An area: four corners, closed by a click on the first; its area is live while drawing.
  await dialog.getByRole('button', { name: marks.tools.polygon }).click();
  for (const [fx, fy] of [[0.55, 0.55], [0.7, 0.55], [0.72, 0.7]]) await clickAt(page, dialog, fx, fy);
  const corner = await spot(dialog, 0.56, 0.72);
  await page.mouse.move(corner.x, corner.y);
  await expect(dialog.getByTestId('marks-status')).toContainText('mm²');
  await expect(dialog.getByTestId('marks-status')).toContainText(marks.source.manifest);
  await page.mouse.click(corner.x, corner.y);
  await clickAt(page, dialog, 0.55, 0.55);
  await labelMark(page, texts, labels.oedema_area);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').nth(1)).toContainText(fill(marks.item, { number: 2, label: labels.oedema_area }));

  // The ruler: dragged; the live length is the one the server then computes, and says where its scale came from.
  await dialog.getByRole('button', { name: marks.tools.line }).click();
  const from = await spot(dialog, 0.2, 0.75);
  const to = await spot(dialog, 0.45, 0.85);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 5 });
  const live = (await dialog.getByTestId('marks-status').textContent()) ?? '';
  expect(live).toContain(marks.source.manifest);
  await page.mouse.up();
  const form = page.getByRole('dialog', { name: marks.form.newRulerTitle });
  await expect(form.getByTestId('mark-form-figures')).toHaveText(live);
  await labelMark(page, texts, labels.other, undefined, marks.form.newRulerTitle);
  const saved = await marksOf(api, treatment);
  expect(saved.annotations.map((mark) => mark.shape.kind)).toEqual(['point', 'polygon', 'line']);
  const ruler = saved.annotations[2].measurement;
  expect(ruler?.kind).toBe('line');
  const lengthUm = ruler?.kind === 'line' ? ruler.lengthUm : NaN;
  const lengthText = fill(marks.figures.length, { um: numberIn(lang, lengthUm) });
  expect(live.startsWith(lengthText)).toBe(true);
  await expect(list.getByRole('listitem').nth(2)).toContainText(lengthText);
  await expect(list.getByRole('listitem').nth(2)).toContainText(marks.source.manifest);

  // A ruler that only measures: its label is optional, "No label" is its default, and it is saved so.
  await dialog.getByRole('button', { name: marks.tools.line }).click();
  const start = await spot(dialog, 0.15, 0.15);
  const end = await spot(dialog, 0.4, 0.2);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 5 });
  await page.mouse.up();
  const rulerForm = page.getByRole('dialog', { name: marks.form.newRulerTitle });
  await expect(rulerForm.getByLabel(marks.form.labelOptional)).toHaveValue('no-label');
  await expect(rulerForm.getByLabel(marks.form.labelOptional).locator('option:checked')).toHaveText(marks.noLabel);
  await expect(rulerForm.getByText(marks.form.labelOptionalHelp)).toBeVisible();
  await expectNoAxeViolations(page);
  await rulerForm.getByRole('button', { name: marks.form.save }).click();
  await expect(rulerForm).toHaveCount(0);
  await expect(list.getByRole('listitem')).toHaveCount(4);
  const measuring = (await marksOf(api, treatment)).annotations[3];
  expect(measuring).toMatchObject({ labelId: null, label: null, shape: { kind: 'line' } });
  const measuringUm = measuring.measurement?.kind === 'line' ? measuring.measurement.lengthUm : NaN;
  await expect(list.getByRole('listitem').nth(3)).toContainText(fill(marks.item, { number: 4, label: marks.noLabel }));
  await expect(list.getByRole('listitem').nth(3)).toContainText(fill(marks.figures.length, { um: numberIn(lang, measuringUm) }));

  // After a reload the marks are there, in the list and on the image.
  await page.reload();
  dialog = await openMarks(page, texts, treatment);
  await expect(dialog.getByRole('list').getByRole('listitem')).toHaveCount(4);
  await expect(dialog.getByRole('list')).toContainText(fill(marks.item, { number: 1, label: labels.microaneurysm }));
  await expect(dialog.getByRole('list')).toContainText(fill(marks.item, { number: 2, label: labels.oedema_area }));
  await expect(dialog.getByRole('list')).toContainText(fill(marks.item, { number: 4, label: marks.noLabel }));
  const overlay = dialog.getByTestId('marks-overlay');
  await expect(overlay.locator('[data-mark-kind]')).toHaveCount(4);
  await expect(overlay.locator('[data-mark-kind="polygon"]')).toContainText(labels.oedema_area);
  await expect(overlay.locator('[data-mark-kind="line"]').first()).toContainText(lengthText);
  await expect(overlay.locator('[data-mark-kind="line"]').nth(1)).toContainText(marks.noLabel);
  // "Show marks" hides them from the image, not from the list.
  await dialog.getByText(marks.show).click();
  await expect(overlay.locator('[data-mark-kind]')).toHaveCount(0);
  await expect(dialog.getByRole('list').getByRole('listitem')).toHaveCount(4);
  await dialog.getByText(marks.show).click();
  await expect(overlay.locator('[data-mark-kind]')).toHaveCount(4);

  // The keyboard's way: a mark of the list opens with Enter, is relabelled, and Delete asks before removing.
  await dialog.getByRole('list').getByRole('button', { name: fill(marks.item, { number: 1, label: labels.microaneurysm }), exact: true }).focus();
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: fill(marks.form.editTitle, { number: 1 }) });
  await edit.getByLabel(marks.form.label).selectOption({ label: labels.haemorrhage });
  await expectNoAxeViolations(page);
  await edit.getByRole('button', { name: marks.form.save }).click();
  await expect(dialog.getByRole('list')).toContainText(fill(marks.item, { number: 1, label: labels.haemorrhage }));
  // The edit dialog gives the focus back to the mark it edited; only then is the third one chosen.
  await expect(edit).toBeHidden();
  await expect(dialog.getByRole('list').getByRole('button', { name: fill(marks.item, { number: 1, label: labels.haemorrhage }), exact: true })).toBeFocused();
  const third = dialog.getByRole('list').getByRole('button', { name: fill(marks.item, { number: 3, label: labels.other }), exact: true });
  await third.focus();
  await expect(third).toBeFocused();
  await page.keyboard.press('Delete');
  // The question is named by its heading (Blueprint's Alert is an alertdialog).
  const question = page.getByRole('alertdialog', { name: fill(marks.deleteTitle, { number: 3 }) });
  await expect(question).toContainText(fill(marks.deleteQuestion, { number: 3, label: labels.other }));
  await expectNoAxeViolations(page);
  await question.getByRole('button', { name: marks.delete }).click();
  await expect(dialog.getByRole('list').getByRole('listitem')).toHaveCount(3);
  expect((await marksOf(api, treatment)).annotations.map((mark) => mark.shape.kind)).toEqual(['point', 'polygon', 'line']);
});

test('a nurse adds a label of the clinic and marks with it; on a locked session the marks are read-only', async ({ page, staff, texts, playwright }) => {
  const nurse = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, nurse);
  const treatment = await uploadedSession(api, await examFile({ name: 'Hanna', secondName: uniqueTag() }));
  const marks = texts.marks;
  await signInToHome(page, texts, nurse);
  let dialog = await openMarks(page, texts, treatment);

  await dialog.getByRole('button', { name: marks.tools.circle }).click();
  const centre = await spot(dialog, 0.5, 0.5);
  await page.mouse.move(centre.x, centre.y);
  await page.mouse.down();
  await page.mouse.move(centre.x + 40, centre.y, { steps: 4 });
  await expect(dialog.getByTestId('marks-status')).toContainText('mm²');
  await page.mouse.up();
  const form = page.getByRole('dialog', { name: marks.form.newTitle });
  const name = `Pigment ${uniqueTag()}`;
  await form.getByLabel(marks.form.label).selectOption({ label: marks.form.addLabel });
  await form.getByLabel(marks.form.newLabel).fill(name);
  await form.getByRole('button', { name: marks.form.addNewLabel }).click();
  await expect(form.getByLabel(marks.form.label, { exact: true })).toHaveValue(/^[0-9a-f-]{36}$/);
  await expect(form.getByLabel(marks.form.label, { exact: true }).locator('option:checked')).toHaveText(name);
  await form.getByRole('button', { name: marks.form.save }).click();
  await expect(dialog.getByRole('list')).toContainText(fill(marks.item, { number: 1, label: name }));
  const [mark] = (await marksOf(api, treatment)).annotations;
  expect(mark.createdBy.id).toBeTruthy();
  expect(mark.shape.kind).toBe('circle');

  // The session is locked (an issue reported); the dialog shows the marks with the lock and offers no change.
  const reported = await api.post(`/api/treatments/${treatment.id}/reports`, { data: { reason: 'The image is of the other eye.' } });
  expect(reported.status(), await reported.text()).toBeLessThan(300);
  await page.reload();
  dialog = await openMarks(page, texts, treatment);
  await expect(dialog.getByText(marks.locked)).toBeVisible();
  await expect(dialog.getByRole('list')).toContainText(fill(marks.item, { number: 1, label: name }));
  await expect(dialog.getByRole('toolbar', { name: marks.toolbar })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: marks.tools.point })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: new RegExp(marks.delete) })).toHaveCount(0);
  await dialog.getByRole('list').getByRole('button').first().focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Delete');
  await expect(page.getByRole('dialog', { name: fill(marks.form.editTitle, { number: 1 }) })).toHaveCount(0);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  // A click on the image draws nothing either.
  await clickAt(page, dialog, 0.3, 0.3);
  await expect(page.getByRole('dialog', { name: marks.form.newTitle })).toHaveCount(0);
  await expectNoAxeViolations(page);
  // And the server would refuse (423) what the screen no longer offers.
  const refused = await api.post(`/api/treatments/${treatment.id}/images/${treatment.images[0].id}/annotations`, {
    data: { shape: { kind: 'point', at: { x: 10, y: 10 } }, labelId: mark.labelId },
  });
  expect(refused.status()).toBe(423);
  expect((await marksOf(api, treatment)).annotations).toHaveLength(1);
});
