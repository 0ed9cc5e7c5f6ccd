// The billing tab as a clinic IT admin uses it: the demo clinic's exams by month and device, an exam uploaded
// now on a laser system of its own counted at once, and the same figures as a CSV download.
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { DEMO_SESSIONS } from '../../server/seed/demo-sessions';
import { SAMPLE_DEVICE } from '../../server/seed/sample-exam';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, examFile, uniqueTag } from './patients';
import { signInToHome } from './session';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const monthOf = (date: Date) => date.toISOString().slice(0, 7);
const monthsBack = (months: number) => {
  const now = new Date();
  return monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1)));
};

test('billing: the demo clinic’s exams per month, a new device’s exam at once, the CSV', async ({ page, staff, texts, lang, playwright }) => {
  const b = texts.billing;
  const from = monthsBack(5);
  const current = monthsBack(0);
  // The demo's sessions before this month (this month's count grows with every journey's uploads): exams
  // uploaded, and plans signed off and packed an hour after the exam (server/seed/demo-sessions.ts).
  const expected = new Map<string, { exams: number; signedOff: number }>();
  const count = (month: string, key: 'exams' | 'signedOff') => {
    if (month < from || month >= current) return;
    const figures = expected.get(month) ?? { exams: 0, signedOff: 0 };
    figures[key] += 1;
    expected.set(month, figures);
  };
  for (const session of DEMO_SESSIONS) {
    count(monthOf(new Date(Date.now() - session.daysAgo * DAY)), 'exams');
    if (session.signedOff) count(monthOf(new Date(Date.now() - session.daysAgo * DAY + HOUR)), 'signedOff');
  }
  const device = `NAV-E2E-${randomUUID().slice(0, 6)}`;
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const upload = await api.post('/api/treatments', { multipart: { file: await examFile({ secondName: uniqueTag(), deviceId: device }) } });
  expect(upload.status(), await upload.text()).toBe(201);
  await api.dispose();

  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await page.getByRole('link', { name: texts.common.areas.billing }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(b.title);
  await page.getByLabel(b.from, { exact: true }).selectOption(from);
  await expect(page).toHaveURL(new RegExp(`from=${from}&to=${current}`));
  const rows = page.getByRole('table').locator('tbody tr');
  const monthLabel = (month: string) =>
    new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

  // Earlier months: exactly the demo's sessions on the sample device.
  for (const [month, { exams, signedOff }] of expected) {
    const row = rows.filter({ hasText: monthLabel(month) }).filter({ hasText: SAMPLE_DEVICE.deviceId });
    await expect(row.locator('td')).toHaveText([monthLabel(month), SAMPLE_DEVICE.deviceId, String(exams), String(signedOff), String(signedOff)]);
  }

  // This month: the new device's one exam, nothing signed off yet.
  await expect(rows.filter({ hasText: device }).locator('td')).toHaveText([monthLabel(current), device, '1', '0', '0']);
  await expectNoAxeViolations(page);

  // The CSV: the same row, months as YYYY-MM, headings in the reader's language, separated as the reader's
  // spreadsheet expects (; in German).
  const sep = lang === 'de' ? ';' : ',';
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: b.download }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await readFile((await file.path())!, 'utf8');
  const lines = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  expect(lines[0]).toBe([b.columns.month, b.columns.device, b.columns.examsUploaded, b.columns.plansSignedOff, b.columns.parameterSetsProduced].join(sep));
  expect(lines).toContain([current, device, 1, 0, 0].join(sep));
  for (const [month, { exams, signedOff }] of expected) expect(lines).toContain([month, SAMPLE_DEVICE.deviceId, exams, signedOff, signedOff].join(sep));
  expect(lines.at(-1)).toMatch(new RegExp(`^${b.total} ${from} – ${current}${sep}${sep}\\d+${sep}\\d+${sep}\\d+$`));
});
