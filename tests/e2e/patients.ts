// Patients and exam files for the workspace journeys, made through the API as a physician of the demo clinic.
// The journeys share that clinic and run side by side: each marks its patients with a tag of its own in the
// second name and looks at the list through a search for that tag.
import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import type { Patient } from '../../generated/model/patient';
import type { Treatment } from '../../generated/model/treatment';
import { buildSampleExam, type SampleExamOptions } from '../../server/seed/sample-exam';
import type { StaffAccount } from './fixtures';
import { REFERENCE_URL } from './reference-server';

/** A tag no other journey's patients carry, to be part of their second names. */
export const uniqueTag = () => `Tag${randomUUID().slice(0, 8)}`;

/** The API as `account` (a physician or nurse), for making patients and sessions. */
export async function apiAs(playwright: PlaywrightWorkerArgs['playwright'], account: StaffAccount): Promise<APIRequestContext> {
  const anonymous = await playwright.request.newContext({ baseURL: REFERENCE_URL });
  const response = await anonymous.post('/api/sign-in', { data: { email: account.email, password: account.password } });
  expect(response.status()).toBe(200);
  const { token } = ((await response.json()) as { data: { token: string } }).data;
  await anonymous.dispose();
  return playwright.request.newContext({ baseURL: REFERENCE_URL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
}

export type NewPatient = { name: string; secondName: string; birthday: string; gender: 'male' | 'female' | 'other' };

export async function createPatient(api: APIRequestContext, patient: NewPatient): Promise<Patient> {
  const response = await api.post('/api/patients', { data: patient });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: Patient }).data;
}

/** An NPT exam file of a made-up patient, as the laser exports it. */
export async function examFile(options: SampleExamOptions & { width?: number; height?: number }) {
  const exam = await buildSampleExam({ width: 640, height: 480, ...options });
  return { name: `${options.secondName ?? 'exam'}.npt`, mimeType: 'application/octet-stream', buffer: Buffer.from(exam.bytes) };
}

/** `file` uploaded through the API (to `patientId`'s card when given); the session once processing is over. */
export async function uploadedSession(
  api: APIRequestContext,
  file: { name: string; mimeType: string; buffer: Buffer },
  patientId?: string,
): Promise<Treatment> {
  const response = await api.post(`/api/treatments${patientId ? `?patientId=${patientId}` : ''}`, { multipart: { file } });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = ((await response.json()) as { data: { treatment: { id: string } } }).data.treatment;
  let treatment: Treatment | undefined;
  await expect
    .poll(async () => {
      treatment = ((await (await api.get(`/api/treatments/${id}`)).json()) as { data: Treatment }).data;
      return treatment.planStatus;
    }, { timeout: 30_000 })
    .not.toMatch(/^(file_uploaded|processing)$/);
  return treatment!;
}

/** Steps 1–3 through the API, as proposed: the session waits at sign-off. */
export async function planToSignOff(api: APIRequestContext, treatment: Treatment) {
  const post = async (path: string, data: object) => {
    const response = await api.post(`/api/treatments/${treatment.id}/plan/${path}`, { data });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: Treatment['plan'] }).data;
  };
  const zones = treatment.plan.exclusionZones!;
  const shape = (zone: typeof zones.faz) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  let plan = await post('exclusion-zones', { revision: treatment.plan.revision, faz: shape(zones.faz), onh: shape(zones.onh) });
  plan = await post('macula-grid', { revision: plan.revision, settings: plan.gridSettings });
  await post('brightness', { revision: plan.revision });
}

/** Puts `file` into the open upload dialog and sends it. */
export async function uploadInDialog(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, uploadLabel: string) {
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(file);
  await page.getByRole('dialog').getByRole('button', { name: uploadLabel, exact: true }).click();
}
