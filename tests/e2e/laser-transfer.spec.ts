// From sign-off to the laser and back (issue 29): a physician signs off a session whose exam came from a laser
// with a connected sync app, and watches step 5 follow the parameter set to the laser and back as treated — the
// reference sync app fetching it, confirming it and reporting the treatment — without a reload; the patient card
// then says when it was treated.
import { randomUUID } from 'node:crypto';
import { YELLOW_LASER_PROFILE } from '../../server/seed/laser-profiles';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, examFile, planToSignOff, uniqueTag, uploadedSession } from './patients';
import { signInToHome } from './session';
import { startSyncApp } from './sync-app';

/** A text of the catalogue with its placeholders standing for anything, as a pattern. */
const shaped = (template: string) =>
  new RegExp(
    template
      .split(/\{\{\w+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+'),
  );

test('a physician signs off and watches the parameter set reach the laser and come back treated, without a reload', async ({
  page,
  staff,
  texts,
  playwright,
  clinicAdmin,
}) => {
  test.setTimeout(120_000);
  const p = texts.planning;
  // A laser of its own (the run's journeys share the demo clinic), with the demo's yellow laser's profile.
  const serial = `MLS-E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
  const added = await clinicAdmin.post('/api/clinic/devices', { data: { deviceId: serial, opticalHeadId: 'OH-E2E', camera: 'Fundus CCD', description: 'Journey laser' } });
  expect(added.status(), await added.text()).toBe(201);
  const { device, enrolment } = ((await added.json()) as { data: { device: { id: string }; enrolment: { code: string } } }).data;
  const profiled = await clinicAdmin.put(`/api/clinic/devices/${device.id}/laser-profile`, { data: { laserProfile: YELLOW_LASER_PROFILE } });
  expect(profiled.status(), await profiled.text()).toBe(200);

  // Its exam, planned up to sign-off through the API.
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const secondName = uniqueTag();
  const treatment = await uploadedSession(api, await examFile({ name: 'Ida', secondName, deviceId: serial }));
  await planToSignOff(api, treatment);

  const syncApp = startSyncApp(enrolment.code, { simulateTreatment: true });
  try {
    await signInToHome(page, texts, physician);
    await page.goto(`/physician/planning?treatmentId=${treatment.id}`);
    const signOffPanel = page.getByRole('region', { name: p.steps[4] });
    await signOffPanel.getByText(p.signOff.confirmPlan).click();
    await signOffPanel.getByLabel(p.signOff.password).fill(physician.password);
    // Marked before sign-off: a reload or a navigation would drop the mark.
    await page.evaluate(() => ((window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true));
    await signOffPanel.getByRole('button', { name: p.signOff.submit }).click();

    const laser = page.getByRole('region', { name: p.transfer.title });
    await expect(laser).toContainText(serial, { timeout: 30_000 });
    await expect(laser).toContainText(shaped(p.transfer.treated_other), { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    expect(syncApp.output()).toContain('reported');
    // Treated: nothing to send or withdraw any more.
    await expect(laser.getByRole('button', { name: p.transfer.cancel })).toHaveCount(0);
    await expectNoAxeViolations(page);
  } finally {
    expect(await syncApp.stop()).toBe(0);
  }

  // The patient card says so too.
  await page.goto(`/physician/patient-card?patientId=${treatment.patientId}`);
  await expect(page.getByText(shaped(texts.patients.transfer.treatedOn)).first()).toBeVisible();
  await expect(page.getByText(texts.patients.transfer.treated, { exact: true }).first()).toBeVisible();
  await expectNoAxeViolations(page);
});
