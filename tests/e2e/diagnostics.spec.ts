// The exam file's diagnostic data on the patient card (issue 17): what the file says, with units, in the
// project's language — and a field of a newer file version this planner does not know, shown as written.
import { buildSampleExam } from '../../server/seed/sample-exam';
import { withManifest } from '../server/exam-files';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, uniqueTag } from './patients';
import { signInToHome } from './session';
import { fill } from './texts';

test('the diagnostic data table shows the file’s values, and a field it does not know as written', async ({ page, staff, texts, lang, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const exam = await buildSampleExam({ width: 640, height: 480, name: 'Ida', secondName: tag, birthday: '1948-09-30', gender: 'female' });
  const bytes = withManifest(exam.bytes, (manifest) => {
    manifest.version = '1.2';
    manifest.diagnostics = {
      iolStatus: 'pseudophakic',
      centralRetinalThicknessUm: 412,
      visualAcuityLogMar: 0.3,
      notes: 'Centre-involving DME.\nFollow-up in 3 months.',
      intraocularPressureMmHg: 17,
    };
  });
  const uploaded = await api.post('/api/treatments', { multipart: { file: { name: 'exam.npt', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) } } });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { patient } = ((await uploaded.json()) as { data: { patient: { id: string } } }).data;

  await signInToHome(page, texts, physician);
  await page.goto(`/physician/patient-card?patientId=${patient.id}`);
  const card = texts.patientCard;
  await page.getByText(card.diagnostics.title).click();
  const table = page.getByRole('table', { name: fill(card.diagnostics.caption, { number: 1 }) });
  const decimal = (value: number) => new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB').format(value);
  const row = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}`) });
  await expect(row(card.settings.iolStatus)).toContainText(card.settings.iolStatuses.pseudophakic);
  await expect(row(card.diagnostics.centralRetinalThickness.replace(/[()]/g, '\\$&'))).toContainText('412 µm');
  await expect(row(card.diagnostics.visualAcuity)).toContainText(
    fill(card.diagnostics.visualAcuityValue, { logMar: decimal(0.3), decimal: decimal(0.5) }),
  );
  await expect(row(card.diagnostics.notes)).toContainText('Centre-involving DME.');
  await expect(table.getByRole('row', { name: /intraocularPressureMmHg/ })).toContainText('17');
  await expect(table.getByText(card.diagnostics.unknownField)).toBeVisible();
  await expectNoAxeViolations(page);
});
