import {
  getComparePatientTreatmentsResponseMock,
  getGetPatientResponseMock,
  getListPatientTreatmentsResponseMock,
} from '@generated/hooks/patients/patients.msw';
import { getListAnnotationLabelsMockHandler, getListImageAnnotationsMockHandler } from '@generated/hooks/annotations/annotations.msw';
import { getGetProfileMockHandler, getGetProfileResponseMock } from '@generated/hooks/profile/profile.msw';
import { getGetTreatmentResponseMock } from '@generated/hooks/treatments/treatments.msw';
import type { Patient } from '@generated/model/patient';
import type { Treatment } from '@generated/model/treatment';
import type { TreatmentSummary } from '@generated/model/treatmentSummary';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '@/app/router';
import { cssColour, PLAN_STYLE } from '@/domain/planning/plan-style';
import { navigation } from '@/lib/api-client';
import type { UiLanguage } from '@/lib/i18n';
import { recentPatients } from '@/lib/recent-patients';
import { cleanup, click, getByLabel, getByText, renderRoutes, waitFor } from '@/testing/render';
import { layoutHandlers } from '@/testing/layout-handlers';

// The whole app at /physician/patient-card: the route's loader, the signed-in frame and the card, against the
// contract's examples (Maria Schneider and her two sessions) changed where a case needs it.
const server = setupServer();
const PROFILE = getGetProfileResponseMock();
const PATIENT: Patient = getGetPatientResponseMock().data;
const SESSIONS: TreatmentSummary[] = getListPatientTreatmentsResponseMock().data;
const DETAILS: Treatment = getGetTreatmentResponseMock().data;
const CARD = `/physician/patient-card?patientId=${PATIENT.id}`;

/** What the server holds for this test: the patient (null: unknown) and their sessions, newest first. */
let patient: Patient | null;
let sessions: TreatmentSummary[];
/** Method and path of every API request, in order. */
let requests: string[];

const envelope = (data: JsonBodyType, message?: string) => HttpResponse.json({ status: 'Success', ...(message && { message }), data });
const failure = (status: number, message: string, code?: string) =>
  HttpResponse.json({ status: 'Error', message, ...(code && { code }) }, { status });
/** A session's details: the summary's fields over the example's settings, images and plan. */
const detailsOf = (summary: TreatmentSummary): Treatment => ({ ...DETAILS, ...summary });

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom has no Blob#stream (msw needs it to answer a blob request), no object URLs and no ResizeObserver.
  Blob.prototype.stream ??= function stream(this: Blob) {
    const bytes = this.arrayBuffer();
    return new ReadableStream({
      async start(controller) {
        controller.enqueue(new Uint8Array(await bytes));
        controller.close();
      },
    });
  };
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
beforeEach(() => {
  patient = structuredClone(PATIENT);
  sessions = structuredClone(SESSIONS);
  requests = [];
  localStorage.setItem('token', 'demo-token');
  vi.spyOn(navigation, 'assign').mockImplementation(() => {});
  let objectUrls = 0;
  URL.createObjectURL = vi.fn(() => `blob:test/${(objectUrls += 1)}`);
  URL.revokeObjectURL = vi.fn();
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}`);
  });
  server.use(...layoutHandlers());
  server.use(
    getGetProfileMockHandler(PROFILE),
    http.get('*/users/:id/avatar', () => new HttpResponse(null, { status: 404 })),
    http.get('*/patients/:id', ({ params }) =>
      patient && params.id === patient.id ? envelope(patient) : failure(404, 'Patient not found', 'patient.not_found'),
    ),
    http.get('*/patients/:id/treatments', () =>
      HttpResponse.json({ status: 'Success', data: sessions, meta: { page: 1, perPage: 100, total: sessions.length, lastPage: 1 } }),
    ),
    http.get('*/treatments/:id', ({ params }) => {
      const summary = sessions.find((session) => session.id === params.id);
      return summary ? envelope(detailsOf(summary)) : failure(404, 'Session not found');
    }),
    // The comparison's marks (read-only) and the clinic's labels, as the contract's examples; before the images,
    // whose `:variant` would take `annotations` too.
    getListImageAnnotationsMockHandler(),
    getListAnnotationLabelsMockHandler(),
    http.get('*/treatments/:id/images/:imageId/:variant', () => new HttpResponse(new Blob(['jpeg'], { type: 'image/jpeg' }))),
    http.get('*/patients/:id/comparison', () => HttpResponse.json(getComparePatientTreatmentsResponseMock())),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

async function renderCard(path = CARD, language: UiLanguage = 'en') {
  const rendered = await renderRoutes(createRoutes, { path, language });
  await waitFor(() => expect(rendered.container.querySelector('h1')?.className).not.toContain('skeleton'));
  return rendered;
}

const text = (element: Element | null) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
const heading = (container: HTMLElement) => text(container.querySelector('h1'));
const sessionCards = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[role="article"]')];
const button = (root: HTMLElement, name: string) => getByText<HTMLButtonElement>(root, 'button', name);
const dialog = (title: string) =>
  waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"]')].find(
      (element) => element.textContent?.startsWith(title) ?? element.getAttribute('aria-label') === title,
    );
    if (!found) throw new Error(`no dialog "${title}"`);
    return found;
  });
const alertDialog = () =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>('[role="alertdialog"]');
    if (!found) throw new Error('no alert dialog');
    return found;
  });
/** Types into a textarea the way a user does (React sees the change). */
async function typeDate(input: HTMLInputElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function typeText(area: HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  await act(async () => {
    setter?.call(area, value);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
/** Sessions of the examples that are locked by an issue report. */
const locked = (session: TreatmentSummary): TreatmentSummary => ({ ...session, locked: true, planStatus: 'issue_reported' });

describe('route loader', () => {
  it('asks for the patient, the sessions and each session while the signed-in frame still waits for the profile', async () => {
    let answerProfile = () => {};
    server.use(
      http.get('*/user/profile', async () => {
        await new Promise<void>((resolve) => (answerProfile = resolve));
        return HttpResponse.json(PROFILE);
      }),
    );
    const { container } = await renderRoutes(createRoutes, { path: CARD });
    await waitFor(() =>
      expect(requests).toEqual(
        expect.arrayContaining([
          `GET /api/patients/${PATIENT.id}`,
          `GET /api/patients/${PATIENT.id}/treatments`,
          ...SESSIONS.map((session) => `GET /api/treatments/${session.id}`),
          // The frame is waiting for it.
          'GET /api/user/profile',
        ]),
      ),
    );
    expect(container.querySelector('h1')).toBeNull();
    // From here on the card's own requests get no answer: what it shows comes from what the loader fetched.
    const never = () => new Promise<Response>(() => {});
    server.use(http.get('*/patients/:id', never), http.get('*/patients/:id/treatments', never), http.get('*/treatments/:id', never));
    act(() => answerProfile());
    await waitFor(() => expect(heading(container)).toBe('Maria Schneider'));
    await waitFor(() => expect(container.querySelectorAll('.mp-setting')).toHaveLength(16));
  });

  it('asks nothing for a link that names no patient, and shows a page that says so', async () => {
    const { container } = await renderCard('/physician/patient-card?patientId=not-a-patient');
    expect(heading(container)).toBe('Patient not found');
    expect(getByText(container, 'a', 'Back to the patient list').getAttribute('href')).toBe('/physician/list');
    expect(requests.filter((request) => request.includes('/patients'))).toEqual([]);
  });
});

describe('states', () => {
  it('an unknown patient is a not-found page, not a crash', async () => {
    patient = null;
    const { container } = await renderCard();
    await waitFor(() => expect(heading(container)).toBe('Patient not found'));
    expect(container.textContent).toContain("This patient is not in your clinic's active list");
  });

  it('a failed load says why and tries again', async () => {
    let fail = true;
    server.use(http.get('*/patients/:id', () => (fail ? failure(503, 'The service is being restarted.') : envelope(PATIENT))));
    const { container } = await renderCard();
    await waitFor(() => expect(heading(container)).toBe('The patient could not be loaded'));
    expect(container.textContent).toContain('The service is being restarted.');
    fail = false;
    await click(button(container, 'Try again'));
    await waitFor(() => expect(heading(container)).toBe('Maria Schneider'));
  });
});

describe('general information and sessions', () => {
  it('shows who the patient is, with age, and remembers the opening for "Recently opened"', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T09:00:00') });
    const { container } = await renderCard();
    const info = getByText(container, '[role="region"] h2', 'General information').closest('[role="region"]') as HTMLElement;
    expect(text(info)).toContain('Birthday23/04/1951 (75 years)');
    expect(text(info)).toContain('GenderFemale');
    expect(text(info)).toContain('Device patient IDNPT-0000184');
    expect(text(info)).toContain('Diabetic macular oedema, right eye.');
    expect(recentPatients(PROFILE.data.id).map((recent) => recent.id)).toEqual([PATIENT.id]);
    vi.useRealTimers();
  });

  it('lists the sessions newest first with eye, status, thumbnail, laser settings and who modified them', async () => {
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    const [newest, first] = sessionCards(container);
    expect(text(newest.querySelector('h3'))).toBe('Session 2 · 18/11/2026');
    expect(text(first.querySelector('h3'))).toBe('Session 1 · 12/08/2026');
    expect(text(newest)).toContain('OD (right eye)');
    expect(text(newest)).toContain('Parameter Set available');
    await waitFor(() => expect(newest.querySelector('img')?.getAttribute('alt')).toBe('Fundus image of session 2'));
    expect(newest.querySelector('img')?.getAttribute('src')).toMatch(/^blob:/);
    const settings = Object.fromEntries(
      [...newest.querySelectorAll('.mp-setting')].map((item) => [text(item.querySelector('dt')), text(item.querySelector('dd'))]),
    );
    expect(settings).toEqual({
      'Spot size': '100 µm',
      'Spot spacing': '2 × spot diameter',
      'Pulse duration': '15 ms',
      'Laser mode': 'Micropulse',
      'IOL status': 'Phakic',
      'Sub-visible laser power': '90 mW',
      Brightness: '0.5',
      'Total spots': '762',
    });
    expect(text(first)).toContain('Modified by Dr. Paul Brandt on');
    // Beside the plan status, where the signed plan stands at the laser (the contract's examples): the first
    // session was treated, and says on which day; the newest is at the laser.
    const tags = (session: Element) => [...session.querySelectorAll('.mp-session-meta .bp6-tag')].map((tag) => text(tag));
    expect(tags(first)).toEqual(['Parameter Set available', 'Treated']);
    expect(text(first.querySelector('.mp-session-meta'))).toContain('Treated on 12/08/2026');
    expect(tags(newest)).toEqual(['Parameter Set available', 'At the laser']);
    expect(text(newest.querySelector('.mp-session-meta'))).not.toContain('Treated on');
  });

  it('shows the exam file’s diagnostic data with units, in both languages, and fields it does not know as written', async () => {
    const diagnostics = { ...DETAILS.diagnostics!, additional: [{ key: 'intraocularPressureMmHg', value: '17' }] };
    server.use(http.get('*/treatments/:id', () => envelope({ ...detailsOf(SESSIONS[0]), diagnostics })));
    for (const [language, expected] of [
      ['en', ['IOL statusPhakic', 'Central retinal thickness (OCT)412 µm', 'Visual acuity0.3 logMAR (decimal 0.5)', 'NotesDiabetic macular oedema, centre-involving.']],
      ['de', ['LinsenstatusPhak', 'Zentrale Netzhautdicke (OCT)412 µm', 'Visus0,3 logMAR (dezimal 0,5)', 'NotizenDiabetic macular oedema, centre-involving.']],
    ] as const) {
      const { container } = await renderCard(CARD, language);
      await waitFor(() => expect(container.querySelector('.mp-diagnostics-table')).not.toBeNull());
      const rows = [...container.querySelectorAll('.mp-diagnostics-table')[0].querySelectorAll('tr')].map((row) => text(row));
      expect(rows.slice(0, 4)).toEqual(expected);
      expect(rows[4]).toMatch(/^intraocularPressureMmHg.+17$/);
      cleanup();
    }
  });

  it('says so when a session’s diagnostic data was not kept', async () => {
    server.use(http.get('*/treatments/:id', () => envelope({ ...detailsOf(SESSIONS[0]), diagnostics: null })));
    const { container } = await renderCard();
    await waitFor(() => expect(container.querySelector('.mp-diagnostics')).not.toBeNull());
    expect(text(container.querySelector('.mp-diagnostics'))).toContain('Not kept for sessions uploaded before this version');
  });

  it('marks a failed session "Error Detected" with the reason, and a locked one with the lock message', async () => {
    sessions = [
      { ...SESSIONS[0], planStatus: 'no_plan_available', error: { code: 'npt.checksum_mismatch', message: 'The file is damaged: its checksum does not match.' } },
      locked(SESSIONS[1]),
    ];
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    const [failed, lockedCard] = sessionCards(container);
    expect(text(failed)).toContain('Error Detected');
    expect(text(failed)).toContain('The file is damaged: its checksum does not match.');
    expect(text(failed)).toContain('Processing the exam failed, so this session has no parameter set.');
    expect(text(lockedCard)).toContain('This session has been locked because the issue was reported.');
    expect(text(lockedCard)).toContain('Issue reported');
    // A locked session can no longer be changed or reported again.
    expect(() => button(lockedCard, 'Report issue')).toThrow();
    expect(() => button(lockedCard, 'Adjust description')).toThrow();
  });

  it('reads a session being processed again until it is in planning', async () => {
    sessions = [{ ...SESSIONS[0], planStatus: 'processing', step: 'initial_exclusion_boundaries', stepIndex: 0 }];
    const { container } = await renderCard();
    await waitFor(() => expect(text(sessionCards(container)[0])).toContain('Processing'));
    expect(button(sessionCards(container)[0], 'Download parameter set').disabled).toBe(true);
    expect(text(sessionCards(container)[0])).toContain('The exam is still being processed');
    sessions = [{ ...SESSIONS[0], planStatus: 'planning', step: 'exclusion_boundaries', stepIndex: 1 }];
    await waitFor(() => expect(text(sessionCards(container)[0])).toContain('In planning'), 8000);
    expect(text(sessionCards(container)[0])).toContain('The parameter set can be downloaded once the plan is signed off.');
  });
});

describe('editing', () => {
  it('adjusts the description inline with a counter, and confirms "Changes added successfully"', async () => {
    let sent: unknown;
    server.use(
      http.post('*/patients/:id', async ({ request }) => {
        sent = await request.json();
        patient = { ...PATIENT, description: 'Stable since August.' };
        return envelope(patient, 'Patient updated successfully');
      }),
    );
    const { container } = await renderCard();
    await click(button(container, 'Adjust description'));
    const area = getByLabel<HTMLTextAreaElement>(container, 'Description');
    expect(area.maxLength).toBe(2000);
    await typeText(area, '  Stable since August.  ');
    expect(container.textContent).toContain('24 of 2000 characters');
    await click(button(container, 'Save'));
    await waitFor(() => expect(document.body.textContent).toContain('Changes added successfully'));
    expect(sent).toEqual({ description: 'Stable since August.' });
    expect(container.textContent).toContain('Stable since August.');
  });

  it('edits the patient in a dialog that refuses a future birthday', async () => {
    const { container } = await renderCard();
    await click(button(container, 'Edit'));
    const edit = await dialog('Edit patient');
    expect(getByLabel(edit, 'Second name').value).toBe('Schneider');
    const birthday = getByLabel(edit, 'Birthday');
    // The birthday as English writes it (day first), not as the browser's date picker would.
    expect(birthday.value).toBe(PATIENT.birthday.split('-').reverse().join('/'));
    expect(birthday.placeholder).toBe('DD/MM/YYYY');
    await typeDate(birthday, '01/01/2999');
    await click(button(edit, 'Save changes'));
    await waitFor(() => expect(edit.textContent).toContain('The birthday cannot be in the future'));
    // A day the calendar does not have is refused with its reason, in the field's place.
    await typeDate(birthday, '31/02/1951');
    await waitFor(() => expect(edit.textContent).toContain('This date does not exist – please check the day and month'));
    expect(document.getElementById(birthday.getAttribute('aria-describedby')!.split(' ')[0])?.textContent).toBe(
      'This date does not exist – please check the day and month',
    );
    expect(requests.filter((request) => request.startsWith('POST'))).toEqual([]);
  });

  it('takes a birthday typed the German way in German, and sends it as the contract’s date', async () => {
    let sent: unknown;
    server.use(
      http.post('*/patients/:id', async ({ request }) => {
        sent = await request.json();
        patient = { ...PATIENT, birthday: '1951-04-03' };
        return envelope(patient, 'Änderungen erfolgreich gespeichert');
      }),
    );
    const { container } = await renderCard(CARD, 'de');
    await click(button(container, 'Bearbeiten'));
    const edit = await dialog('Patientendaten bearbeiten');
    const birthday = getByLabel(edit, 'Geburtsdatum');
    expect(birthday.value).toBe(PATIENT.birthday.split('-').reverse().join('.'));
    expect(birthday.placeholder).toBe('TT.MM.JJJJ');
    await typeDate(birthday, '3.4.1951');
    await act(async () => birthday.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    // Left, the field shows the date in its own form.
    expect(birthday.value).toBe('03.04.1951');
    await click(button(edit, 'Änderungen speichern'));
    await waitFor(() => expect(sent).toMatchObject({ birthday: '1951-04-03' }));
  });
});

describe('actions on a session', () => {
  it('reports an issue with a reason; the session then shows the lock', async () => {
    let sent: unknown;
    server.use(
      http.post('*/treatments/:id/reports', async ({ request, params }) => {
        sent = await request.json();
        sessions = sessions.map((session) => (session.id === params.id ? locked(session) : session));
        const summary = sessions.find((session) => session.id === params.id)!;
        return envelope(detailsOf(summary), 'Issue reported. This session has been locked because the issue was reported.');
      }),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    await click(button(sessionCards(container)[0], 'Report issue'));
    const report = await dialog('Report an issue with session 2');
    await click(button(report, 'Report issue and lock'));
    expect(report.textContent).toContain('Please describe the issue.');
    await typeText(getByLabel<HTMLTextAreaElement>(report, 'What is wrong?'), 'Vessel crossing taken for the optic disc.');
    await click(button(report, 'Report issue and lock'));
    await waitFor(() => expect(text(sessionCards(container)[0])).toContain('This session has been locked because the issue was reported.'));
    expect(sent).toEqual({ reason: 'Vessel crossing taken for the optic disc.' });
  });

  it('offers the treatment report of a session locked after its parameter set was packed, not of one locked before', async () => {
    const packed = DETAILS.plan.parameterSet;
    expect(packed).not.toBeNull();
    sessions = [locked(SESSIONS[0]), locked(SESSIONS[1])];
    server.use(
      http.get('*/treatments/:id', ({ params }) => {
        const summary = sessions.find((session) => session.id === params.id)!;
        const details = detailsOf(summary);
        return envelope(summary.id === SESSIONS[0].id ? details : { ...details, plan: { ...details.plan, parameterSet: null } });
      }),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(button(sessionCards(container)[0], 'Treatment report').disabled).toBe(false));
    expect(button(sessionCards(container)[1], 'Treatment report').disabled).toBe(true);
    expect(button(sessionCards(container)[0], 'Download parameter set').disabled).toBe(true);
  });

  it('offers no deletion of a locked session, and says why', async () => {
    sessions = [locked(SESSIONS[0]), SESSIONS[1]];
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    const [lockedCard, open] = sessionCards(container);
    const refused = button(lockedCard, 'Delete session');
    expect(refused.disabled).toBe(true);
    const reason = document.getElementById(refused.getAttribute('aria-describedby') ?? '');
    expect(text(reason)).toBe('This session is locked while its issue report stands; it gets no parameter set and cannot be deleted.');
    // The note is on screen, and the parameter set's button gives the same reason.
    expect(lockedCard.contains(reason)).toBe(true);
    expect(button(lockedCard, 'Download parameter set').getAttribute('aria-describedby')).toBe(reason!.id);
    expect(button(open, 'Delete session').disabled).toBe(false);
    expect(button(open, 'Delete session').hasAttribute('aria-describedby')).toBe(false);
  });

  it('lets a physician withdraw a report after asking, by a named dialog; the card then shows the session unlocked', async () => {
    sessions = [locked(SESSIONS[0]), SESSIONS[1]];
    const reported = { ...detailsOf(sessions[0]), issueReport: DETAILS.issueReport ?? { id: SESSIONS[0].id, reason: 'Disc on a vessel crossing', reportedBy: { id: PROFILE.data.id, name: 'Miriam Vogel' }, reportedAt: '2026-11-21T10:52:00Z' } };
    server.use(
      http.get('*/treatments/:id', ({ params }) => {
        const summary = sessions.find((session) => session.id === params.id)!;
        return envelope(summary.locked ? { ...reported, ...summary } : { ...detailsOf(summary), issueReport: null });
      }),
      http.delete('*/treatments/:id/reports', ({ params }) => {
        sessions = sessions.map((session) => (session.id === params.id ? { ...session, locked: false, planStatus: 'planning' } : session));
        return envelope({ treatmentId: params.id, patientId: PATIENT.id, number: 2, locked: false, planStatus: 'planning', withdrawnAt: '2026-11-21T11:05:00Z' }, 'Issue report withdrawn. The session is no longer locked.');
      }),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(button(sessionCards(container)[0], 'Withdraw report')).toBeTruthy());
    await click(button(sessionCards(container)[0], 'Withdraw report'));
    const confirm = await alertDialog();
    const name = document.getElementById(confirm.getAttribute('aria-labelledby') ?? '');
    expect(text(name)).toBe(`Withdraw the issue report for session ${SESSIONS[0].number}?`);
    await click(button(confirm, 'Withdraw report'));
    await waitFor(() => expect(requests).toContain(`DELETE /api/treatments/${SESSIONS[0].id}/reports`));
    await waitFor(() => expect(button(sessionCards(container)[0], 'Delete session').disabled).toBe(false));
    expect(sessionCards(container)[0].textContent).not.toContain('Withdraw report');
  });

  it('names the deletion dialog', async () => {
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    await click(button(sessionCards(container)[0], 'Delete session'));
    const confirm = await alertDialog();
    expect(text(document.getElementById(confirm.getAttribute('aria-labelledby') ?? ''))).toBe(`Delete session ${SESSIONS[0].number}`);
  });

  it('asks before deleting a session, and shows the lock message when the server refuses (locked meanwhile)', async () => {
    // Shown unlocked, but someone reported an issue since: the server answers 423 with the lock message.
    server.use(
      http.delete('*/treatments/:id', () =>
        failure(423, 'This session has been locked because the issue was reported.', 'treatment.locked'),
      ),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    await click(button(sessionCards(container)[0], 'Delete session'));
    const confirm = await alertDialog();
    expect(confirm.textContent).toContain('Delete session 2 with its images and plan? This cannot be undone.');
    await click(button(confirm, 'Delete session'));
    await waitFor(() => expect(document.body.querySelector('.mp-notification')?.textContent).toContain(
      'This session has been locked because the issue was reported.',
    ));
    expect(sessionCards(container)).toHaveLength(2);
  });

  it('deletes a session once confirmed', async () => {
    server.use(
      http.delete('*/treatments/:id', ({ params }) => {
        sessions = sessions.filter((session) => session.id !== params.id);
        return HttpResponse.json({ status: 'Success', message: 'Session deleted successfully' });
      }),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    await click(button(sessionCards(container)[1], 'Delete session'));
    await click(button(await alertDialog(), 'Delete session'));
    await waitFor(() => expect(sessionCards(container)).toHaveLength(1));
    expect(document.body.textContent).toContain('Session deleted successfully');
  });

  it('downloads the parameter set only where there is one, and shows the server’s message when it cannot', async () => {
    sessions = [SESSIONS[0], { ...SESSIONS[1], planStatus: 'planning', step: 'macula_grid_pattern', stepIndex: 3 }];
    server.use(
      http.get('*/treatments/:id/parameter-set', () =>
        failure(501, 'The parameter set is made once planning is available.', 'not_implemented'),
      ),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    const [available, planning] = sessionCards(container);
    const unavailable = button(planning, 'Download parameter set');
    expect(unavailable.disabled).toBe(true);
    const reason = document.getElementById(unavailable.getAttribute('aria-describedby') ?? '');
    expect(text(reason)).toBe('The parameter set can be downloaded once the plan is signed off.');
    await click(button(available, 'Download parameter set'));
    await waitFor(() => expect(document.body.textContent).toContain('The parameter set is made once planning is available.'));
  });

  it('adjusts a session’s description', async () => {
    let sent: unknown;
    server.use(
      http.post('*/treatments/:id', async ({ request, params }) => {
        sent = await request.json();
        sessions = sessions.map((session) => (session.id === params.id ? { ...session, description: 'Oedema regressing.' } : session));
        return envelope(detailsOf(sessions[0]), 'Changes added successfully');
      }),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    const card = sessionCards(container)[0];
    await click(button(card, 'Adjust description'));
    await typeText(getByLabel<HTMLTextAreaElement>(card, 'Session description'), 'Oedema regressing.');
    await click(button(card, 'Save'));
    await waitFor(() => expect(text(sessionCards(container)[0])).toContain('Oedema regressing.'));
    expect(sent).toEqual({ description: 'Oedema regressing.' });
  });
});

describe('request deletion', () => {
  it('needs a reason, then goes back to the list with the confirmation', async () => {
    server.use(
      http.post('*/patients/:id/deletion-request', () => envelope({ ...PATIENT, status: 'deleting' }, 'Deletion request sent to your IT administrator.')),
      http.get('*/patients', () =>
        HttpResponse.json({ status: 'Success', data: [], meta: { page: 1, perPage: 20, total: 0, lastPage: 1 } }),
      ),
    );
    const { container, router } = await renderCard();
    await click(button(container, 'Request deletion'));
    const request = await dialog('Request deletion');
    await click(button(request, 'Send request'));
    expect(request.textContent).toContain('Please give a reason.');
    await typeText(getByLabel<HTMLTextAreaElement>(request, 'Reason for the deletion'), 'Duplicate record.');
    await click(button(request, 'Send request'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/physician/list'));
    expect(document.body.textContent).toContain('Deletion request sent to your IT administrator.');
    expect(recentPatients(PROFILE.data.id)).toEqual([]);
  });
});

describe('session comparison', () => {
  it('compares the two newest sessions: images with alt text, the plans drawn, the differences, zoom in step', async () => {
    const example = getComparePatientTreatmentsResponseMock();
    example.data.second.laserSettings = { ...example.data.second.laserSettings, iolStatus: 'pseudophakic' };
    server.use(http.get('*/patients/:id/comparison', () => HttpResponse.json(example)));
    const { container } = await renderCard();
    const region = await waitFor(() => getByText(container, 'h2', 'Session comparison').closest('[role="region"]') as HTMLElement);
    await waitFor(() => expect(region.querySelectorAll('img')).toHaveLength(2));
    expect([...region.querySelectorAll('img')].map((img) => img.alt)).toEqual(['Session 1 · 12/08/2026', 'Session 2 · 18/11/2026']);
    expect(requests).toContain(`GET /api/patients/${PATIENT.id}/comparison`);
    // Both exclusion zones and the spots of each plan, in the image's pixels.
    const overlays = [...region.querySelectorAll('.mp-compare-layer svg:not(.mp-marks-overlay)')];
    expect(overlays.map((svg) => svg.getAttribute('viewBox'))).toEqual(['0 0 1600 1200', '0 0 1600 1200']);
    expect(overlays[0].querySelectorAll('ellipse')).toHaveLength(2);
    expect(overlays[0].querySelectorAll('path[data-spots]').length).toBeGreaterThan(0);
    // In the plan style's colours, as the planner and the report draw them.
    expect(overlays[0].querySelector('ellipse[data-zone="FAZ"]')!.getAttribute('stroke')).toBe(cssColour(PLAN_STYLE.zones.FAZ.stroke));
    const table = region.querySelector('table')!;
    expect([...table.querySelectorAll('thead th')].map(text)).toEqual(['Parameter', 'Session 1', 'Session 2', 'Difference']);
    const cells = (name: string) => [...getByText(table, 'th', name).closest('tr')!.children].map(text);
    expect(cells('Total spots')).toEqual(['Total spots', '748', '762', '+14']);
    expect(cells('Date')).toEqual(['Date', '12/08/2026', '18/11/2026', '98 days']);
    expect(cells('Spot size')).toEqual(['Spot size', '100 µm', '100 µm', '']);
    expect(cells('IOL status')).toEqual(['IOL status', 'Phakic', 'Pseudophakic', 'Differs']);

    const layers = () => [...region.querySelectorAll<HTMLElement>('[data-testid="comparison-layer"]')].map((layer) => layer.style.transform);
    const [before] = layers();
    await click(region.querySelector<HTMLButtonElement>('button[aria-label="Zoom in"]')!);
    const [first, second] = layers();
    expect(first).not.toBe(before);
    expect(second).toBe(first);
    await click(button(region, 'Fit'));
    expect(layers()).toEqual([before, before]);

    // Each image's marks (read-only, the contract's five: one of each kind and a ruler without a label), which the switch hides.
    const marks = () => [...region.querySelectorAll('.mp-marks-overlay')].map((svg) => svg.querySelectorAll('[data-mark-kind]').length);
    await waitFor(() => expect(marks()).toEqual([5, 5]));
    expect(region.querySelector('[role="toolbar"]')).toBeNull();
    await click(getByText(region, 'label', 'Show marks'));
    await waitFor(() => expect(marks()).toEqual([]));
  });

  it('with more than two sessions, lets the user pick the two to compare (a third pick replaces the older)', async () => {
    const third = { ...SESSIONS[0], id: '0b9e3c1a-6d2f-4e8a-9c4b-7a1d5e3f2c90', number: 3, date: '2026-11-22T08:00:00Z' };
    sessions = [third, ...SESSIONS];
    const compared: string[] = [];
    server.use(
      http.get('*/patients/:id/comparison', ({ request }) => {
        const query = new URL(request.url).searchParams;
        compared.push(`${query.get('first')} ${query.get('second')}`);
        return HttpResponse.json(getComparePatientTreatmentsResponseMock());
      }),
    );
    const { container } = await renderCard();
    await waitFor(() => expect(compared).toEqual([`${SESSIONS[0].id} ${third.id}`]));
    const pick = (number: number) => container.querySelector<HTMLInputElement>(`input[aria-label="Compare session ${number}"]`)!;
    expect([pick(3).checked, pick(2).checked, pick(1).checked]).toEqual([true, true, false]);
    await click(pick(1));
    // Session 2 was picked before session 3: session 1 replaces it; the earlier session comes first.
    expect([pick(3).checked, pick(2).checked, pick(1).checked]).toEqual([true, false, true]);
    await waitFor(() => expect(compared).toContain(`${SESSIONS[1].id} ${third.id}`));
    await click(pick(3));
    expect(container.textContent).toContain('Pick two sessions to compare them.');
  });

  it('shows the card in German', async () => {
    const { container } = await renderCard(CARD, 'de');
    await waitFor(() => expect(sessionCards(container)).toHaveLength(2));
    expect(container.textContent).toContain('Allgemeine Angaben');
    expect(text(sessionCards(container)[0])).toContain('Parametersatz herunterladen');
    await waitFor(() => expect(container.textContent).toContain('Sitzungsvergleich'));
  });
});
