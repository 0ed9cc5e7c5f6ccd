// The treatment report through HTTP (PGlite, and PostgreSQL with DATABASE_URL): refused before sign-off, then a
// PDF whose text (read back with pdf.js) names the patient, the signing physician, the sign-off time and the
// parameter set's SHA-256 in English and in German; the image's labels and measurements; the same bytes on
// every download; physicians and nurses may download it, other roles not, other clinics learn nothing; a
// locked session's report says that an issue was reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from './exam-files';
import { ALL_ROLES, createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { pdfText } from './pdf-text';
import { planToSignOff } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let clinicId: string;
const users: Record<string, { id: string; token: string }> = {};

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db, 'Augenklinik Süd');
  for (const [key, role, firstName, lastName, clinic] of [
    ['physician', 'clinic_physicians', 'Anna', 'Keller', clinicId],
    ['nurse', 'clinic_nurses', 'Miriam', 'Vogel', clinicId],
    ['stranger', 'clinic_physicians', 'Otto', 'Fremd', await createClinic(server.db, 'Augenklinik Nord')],
  ] as const) {
    const user = await createUser(server.db, { clinicId: clinic, role, firstName, lastName });
    users[key] = { id: user.id, token: await sessionFor(server.db, user.id) };
  }
});
afterAll(() => server?.close());

let seed = 1700;
/** A processed session of a new patient (a name in Latin with diacritics and in Cyrillic), planned to sign-off. */
async function readyForSignOff(): Promise<{ id: string; revision: number; name: string; secondName: string }> {
  seed += 1;
  const name = `Zoë${seed}`;
  const secondName = 'Ковалёва-Müller';
  const exam = await smallExam({ seed, name, secondName, deviceSideId: `RPT-${seed}`, eye: 'OS' });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const created = await server.call<Body>('POST', '/treatments', { token: users.nurse.token, form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await server.jobsIdle();
  const id: string = created.body.data.treatment.id;
  const plan = await planToSignOff(server, id, users.nurse.token);
  return { id, revision: plan.revision, name, secondName };
}

async function signedOffAndPacked(): Promise<{ id: string; name: string; secondName: string; treatment: Body }> {
  const session = await readyForSignOff();
  const signed = await server.call<Body>('POST', `/treatments/${session.id}/confirm`, {
    token: users.physician.token,
    json: { revision: session.revision, password: PASSWORD, confirm: true },
  });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  await server.jobsIdle();
  const treatment = (await server.call<Body>('GET', `/treatments/${session.id}`, { token: users.nurse.token })).body.data;
  expect(treatment.step).toBe('available');
  return { ...session, treatment };
}

const download = (id: string, token = users.physician.token, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('GET', `/treatments/${id}/treatment-report`, { token, lang });

const bytesOf = (body: unknown) => new Uint8Array(body as Buffer);

/** "18/11/2026, 14:05 UTC" (en-GB) or "18.11.2026, 14:05 UTC", from an ISO timestamp: a reader without a time zone. */
function signedAtText(iso: string, lang: 'en' | 'de'): string {
  const [date, time] = [iso.slice(0, 10).split('-'), iso.slice(11, 16)];
  const day = lang === 'en' ? `${date[2]}/${date[1]}/${date[0]}` : `${date[2]}.${date[1]}.${date[0]}`;
  return `${day}, ${time} UTC`;
}

describe('the treatment report', () => {
  let signed: Awaited<ReturnType<typeof signedOffAndPacked>>;
  beforeAll(async () => {
    signed = await signedOffAndPacked();
  });

  it('is refused before sign-off, in the reader’s language', async () => {
    const session = await readyForSignOff();
    const en = await download(session.id, users.physician.token, 'en');
    expect(en.status).toBe(409);
    expect(en.body).toMatchObject({
      code: 'treatment.report_not_ready',
      message: 'The treatment report is available once the plan is signed off and its parameter set is packed.',
    });
    const de = await download(session.id, users.physician.token, 'de');
    expect(de.status).toBe(409);
    expect(de.body).toMatchObject({
      code: 'treatment.report_not_ready',
      message: 'Der Behandlungsbericht ist verfügbar, sobald der Plan freigegeben und sein Parametersatz erstellt ist.',
    });
  });

  it('is a PDF attachment that is never cached, named by session, eye and date', async () => {
    const answer = await download(signed.id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const date = String(signed.treatment.date).slice(0, 10);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="treatment-report-${signed.id.slice(0, 8)}-OS-${date}.pdf"`);
    expect(Buffer.from(bytesOf(answer.body).subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const audit = await server.db.selectFrom('audit_log').select(['actor_id', 'outcome']).where('action', '=', 'plan.report_downloaded').where('target_id', '=', signed.id).execute();
    expect(audit).toContainEqual({ actor_id: users.physician.id, outcome: 'success' });
  });

  it('names the patient, who signed off and when, and the parameter set’s full SHA-256, in English', async () => {
    const page = (await pdfText(bytesOf((await download(signed.id)).body))).join(' ');
    const { signOff, parameterSet } = signed.treatment.plan;
    expect(parameterSet.sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const text of [
      'Treatment report',
      `${signed.secondName}, ${signed.name}`,
      'Signed off by',
      signOff.by.name,
      signedAtText(signOff.at, 'en'),
      parameterSet.sha256,
      parameterSet.fileName,
      'Laser settings',
      'OS (left eye)',
      'Augenklinik Süd',
    ]) {
      expect(page).toContain(text);
    }
    expect(signOff.by.name).toBe('Anna Keller');
  });

  it('has German headings and dates for a German reader', async () => {
    const page = (await pdfText(bytesOf((await download(signed.id, users.physician.token, 'de')).body))).join(' ');
    const { signOff, parameterSet } = signed.treatment.plan;
    for (const text of [
      'Behandlungsbericht',
      'Patient/Patientin',
      'Laserparameter',
      'Freigabe und Parametersatz',
      'Freigegeben von',
      `${signed.secondName}, ${signed.name}`,
      signOff.by.name,
      signedAtText(signOff.at, 'de'),
      parameterSet.sha256,
      'OS (linkes Auge)',
    ]) {
      expect(page).toContain(text);
    }
    expect(page).not.toContain('Treatment report');
  });

  it('states its times in the reader’s time zone, named beside them; an unknown zone is refused', async () => {
    const inBerlin = (timeZone: string) =>
      server.call<Body>('GET', `/treatments/${signed.id}/treatment-report?timeZone=${encodeURIComponent(timeZone)}`, { lang: 'de', token: users.physician.token });
    const page = (await pdfText(bytesOf((await inBerlin('Europe/Berlin')).body))).join(' ');
    // The sign-off as a Berlin clinic reads it: a local time with MEZ (winter) or MESZ (summer) beside it.
    const at = new Date(signed.treatment.plan.signOff.at);
    const local = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('de-DE', { ...options, timeZone: 'Europe/Berlin' }).format(at);
    const time = local({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(page).toContain(`${local({ day: '2-digit', month: '2-digit', year: 'numeric' })}, ${time} ${/MESZ/.test(local({ timeZoneName: 'short' })) ? 'MESZ' : 'MEZ'}`);
    expect(page).not.toContain(signedAtText(signed.treatment.plan.signOff.at, 'de'));
    // The zone as any spelling of its name gives the same document.
    const lower = bytesOf((await inBerlin('europe/berlin')).body);
    expect(Buffer.from(lower).equals(Buffer.from(bytesOf((await inBerlin('Europe/Berlin')).body)))).toBe(true);

    const unknown = await inBerlin('Mars/Olympus_Mons');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      code: 'request.invalid',
      errors: { timeZone: ['Diese Zeitzone ist unbekannt. Bitte geben Sie ihren IANA-Namen an, z. B. Europe/Berlin.'] },
    });
  });

  it('is the same bytes on every download, and a nurse may download it', async () => {
    const first = bytesOf((await download(signed.id)).body);
    const second = await download(signed.id, users.nurse.token);
    expect(second.status).toBe(200);
    expect(Buffer.from(bytesOf(second.body)).equals(Buffer.from(first))).toBe(true);
    const german = bytesOf((await download(signed.id, users.nurse.token, 'de')).body);
    expect(Buffer.from(german).equals(Buffer.from(first))).toBe(false);
  });

  it('lists the image’s labels and measurements with their figures', async () => {
    const session = await signedOffAndPacked();
    const before = bytesOf((await download(session.id)).body);
    const labels = (await server.call<Body>('GET', '/clinic/annotation-labels', { token: users.nurse.token })).body.data;
    const fundus = session.treatment.images.find((image: Body) => image.role === 'fundus');
    const placed = await server.call<Body>('POST', `/treatments/${session.id}/images/${fundus.id}/annotations`, {
      token: users.nurse.token,
      json: { shape: { kind: 'line', start: { x: 100, y: 100 }, end: { x: 400, y: 260 } }, labelId: labels[0].id, note: 'Seen at the last visit too.' },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const lengthUm = placed.body.data.measurement.lengthUm;

    const after = bytesOf((await download(session.id)).body);
    expect(Buffer.from(after).equals(Buffer.from(before))).toBe(false);
    const text = (await pdfText(after)).join(' ');
    for (const expected of ['Labels and measurements', labels[0].name, 'Seen at the last visit too.', `${new Intl.NumberFormat('en-GB').format(lengthUm)} µm`]) {
      expect(text).toContain(expected.normalize('NFKC'));
    }
  });

  it('says "No label" for a ruler saved without one, in English and German', async () => {
    const session = await signedOffAndPacked();
    const fundus = session.treatment.images.find((image: Body) => image.role === 'fundus');
    const placed = await server.call<Body>('POST', `/treatments/${session.id}/images/${fundus.id}/annotations`, {
      token: users.nurse.token,
      json: { shape: { kind: 'line', start: { x: 120, y: 140 }, end: { x: 420, y: 140 } }, labelId: null },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const lengthUm = placed.body.data.measurement.lengthUm;
    const english = (await pdfText(bytesOf((await download(session.id)).body))).join(' ');
    expect(english).toContain('No label');
    expect(english).toContain(`${new Intl.NumberFormat('en-GB').format(lengthUm)} µm`.normalize('NFKC'));
    const german = (await pdfText(bytesOf((await download(session.id, users.nurse.token, 'de')).body))).join(' ');
    expect(german).toContain('Ohne Beschriftung');
  });

  it('is for physicians and nurses, as x-roles says; nothing to another clinic; needs a signed-in caller', async () => {
    for (const role of ALL_ROLES) {
      const user = await createUser(server.db, { clinicId, role });
      const answer = await download(signed.id, await sessionFor(server.db, user.id));
      expect(answer.status, role).toBe(['clinic_physicians', 'clinic_nurses'].includes(role) ? 200 : 403);
    }
    expect((await download(signed.id, users.stranger.token)).status).toBe(404);
    const anonymous = await server.call<Body>('GET', `/treatments/${signed.id}/treatment-report`);
    expect(anonymous.status).toBe(401);
  });

  it('still serves a locked session, saying an issue was reported and the parameter set is withheld', async () => {
    const locked = await signedOffAndPacked();
    const reason = 'The fovea was detected on a haemorrhage.';
    const reported = await server.call<Body>('POST', `/treatments/${locked.id}/reports`, { token: users.nurse.token, json: { reason } });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    expect((await server.call<Body>('GET', `/treatments/${locked.id}/parameter-set`, { token: users.nurse.token })).status).toBe(423);

    const answer = await download(locked.id);
    expect(answer.status).toBe(200);
    const page = (await pdfText(bytesOf(answer.body))).join(' ');
    const at = reported.body.data.issueReport.reportedAt;
    for (const text of ['Issue reported — session locked', `on ${signedAtText(at, 'en')} by Miriam Vogel`, `Reason: ${reason}`, 'parameter set is withheld']) {
      expect(page).toContain(text);
    }
    const german = (await pdfText(bytesOf((await download(locked.id, users.physician.token, 'de')).body))).join(' ');
    expect(german).toContain('Problem gemeldet – Sitzung gesperrt');
    expect(german).toContain('zurückgehalten');
  });
});
