import {
  getCreatePatientMockHandler,
  getCreatePatientResponseMock,
  getGetPatientMockHandler,
  getListPatientsResponseMock,
  getListPatientTreatmentsMockHandler,
} from '@generated/hooks/patients/patients.msw';
import { getGetProfileMockHandler, getGetProfileResponseMock } from '@generated/hooks/profile/profile.msw';
import type { Patient } from '@generated/model/patient';
import type { PatientListResponse } from '@generated/model/patientListResponse';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '@/app/router';
import { navigation } from '@/lib/api-client';
import type { UiLanguage } from '@/lib/i18n';
import { rememberPatient } from '@/lib/recent-patients';
import { cleanup, click, getByLabel, getByText, renderRoutes, select, type, waitFor } from '@/testing/render';
import { layoutHandlers } from '@/testing/layout-handlers';
import { localToday } from '@/lib/format';

// The whole app at /physician/list: the route's loader, the signed-in frame and the page, against the
// contract's examples (generated MSW handlers) changed where a case needs it.
const server = setupServer();
const PROFILE = getGetProfileResponseMock();
const EXAMPLES = getListPatientsResponseMock();

/** The query of every GET /patients the app sent, in order. */
let listRequests: URLSearchParams[];
/** Answers GET /patients; the contract's example list by default. */
let listAnswer: (query: URLSearchParams) => Response | Promise<Response>;

const answerList = (patients: Patient[], { page = 1, total = patients.length, perPage = 20 } = {}): Response =>
  HttpResponse.json({
    status: 'Success',
    data: patients,
    meta: { page, perPage, total, lastPage: Math.max(1, Math.ceil(total / perPage)) },
  } satisfies PatientListResponse);

/** Twenty patients of page `page` out of `total`, named after their place in the list. */
const patientsOfPage = (page: number, total: number): Patient[] =>
  Array.from({ length: Math.min(20, total - (page - 1) * 20) }, (_, index) => {
    const n = (page - 1) * 20 + index + 1;
    return { ...EXAMPLES.data[3], id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `P${n}`, secondName: 'Test' };
  });

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom has no Blob#stream, which msw needs to answer a blob request (the frame's avatar).
  Blob.prototype.stream ??= function stream(this: Blob) {
    const bytes = this.arrayBuffer();
    return new ReadableStream({
      async start(controller) {
        controller.enqueue(new Uint8Array(await bytes));
        controller.close();
      },
    });
  };
});
beforeEach(() => {
  listRequests = [];
  listAnswer = () => HttpResponse.json(EXAMPLES);
  localStorage.setItem('token', 'demo-token');
  vi.spyOn(navigation, 'assign').mockImplementation(() => {});
  server.use(...layoutHandlers());
  server.use(
    getGetProfileMockHandler(PROFILE),
    http.get('*/patients', ({ request }) => {
      const query = new URL(request.url).searchParams;
      listRequests.push(query);
      return listAnswer(query);
    }),
    // The signed-in frame's avatar.
    http.get('*/users/:id/avatar', () => new HttpResponse(null, { status: 404 })),
    // The card, where a row leads: the patient without sessions.
    getGetPatientMockHandler(),
    getListPatientTreatmentsMockHandler({ status: 'Success', data: [], meta: { page: 1, perPage: 20, total: 0, lastPage: 1 } }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

async function renderList(query = '', language: UiLanguage = 'en') {
  const rendered = await renderRoutes(createRoutes, { path: `/physician/list${query}`, language });
  await waitFor(() => expect(rendered.container.querySelector('h1')?.textContent).toBe(language === 'en' ? 'Patients' : 'Patienten'));
  return rendered;
}

const bodyRows = (container: HTMLElement) => [...container.querySelectorAll('table tbody tr')];
const rowTexts = (container: HTMLElement) =>
  bodyRows(container).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
const nameLinks = (container: HTMLElement) => [...container.querySelectorAll<HTMLAnchorElement>('table tbody a')];
const header = (container: HTMLElement, name: string) => getByText(container, 'th', name);
const dialog = (title: string) =>
  waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((element) =>
      element.textContent?.startsWith(title),
    );
    if (!found) throw new Error(`no dialog "${title}"`);
    return found;
  });
const press = (target: EventTarget, key: string) =>
  act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });

describe('route loader', () => {
  it('asks for the shown pages while the signed-in frame still waits for the profile', async () => {
    let answerProfile = () => {};
    server.use(
      http.get('*/user/profile', async () => {
        await new Promise<void>((resolve) => (answerProfile = resolve));
        return HttpResponse.json(PROFILE);
      }),
    );
    // Only the loader's two requests are answered: rows on the page come from what it fetched.
    listAnswer = (query) =>
      listRequests.length > 2
        ? new Promise<Response>(() => {})
        : answerList(patientsOfPage(Number(query.get('page')), 45), { page: Number(query.get('page')), total: 45 });
    const { container } = await renderRoutes(createRoutes, { path: '/physician/list?search=Test&page=2&more=1' });

    await waitFor(() => expect(listRequests.map((query) => query.get('page'))).toEqual(['2', '3']));
    expect(Object.fromEntries(listRequests[0])).toEqual({ page: '2', perPage: '20', sort: '-latestSessionDate', search: 'Test' });
    expect(container.querySelector('table')).toBeNull();

    act(() => answerProfile());
    await waitFor(() => expect(nameLinks(container)).toHaveLength(25));
    expect(nameLinks(container).map((link) => link.textContent)).toEqual(
      Array.from({ length: 25 }, (_, index) => `Test, P${index + 21}`),
    );
  });

  it('asks nothing for a reversed birthday range, and nothing without a session', async () => {
    await renderList('?birthdayFrom=1960-01-01&birthdayTo=1950-01-01');
    expect(getByText(document.body, '[role="alert"]', 'The end of the birthday range lies before its start. Please correct one of the two dates.')).toBeTruthy();
    expect(listRequests).toEqual([]);

    cleanup();
    localStorage.clear();
    const { router } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(listRequests).toEqual([]);
  });
});

describe('the list', () => {
  it('shows the patient columns, "Error Detected" for a failed latest session, dates in the UI language', async () => {
    const { container } = await renderList();
    await waitFor(() => expect(bodyRows(container)).toHaveLength(5));
    expect([...container.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Patient',
      'Birthday',
      'Gender',
      'Latest session',
      'Parameter set status',
      'Sessions',
    ]);
    expect(rowTexts(container)[0]).toEqual(['Fischer, Elena', '17/01/1963', 'Female', '21/11/2026', 'Processing', '1']);
    expect(rowTexts(container).map((cells) => cells[4])).toEqual([
      'Processing',
      'In planning',
      'Error Detected',
      // The signed plan at the laser (the contract's example: received), a second tag after the plan status.
      'Parameter Set available At the laser',
      'Issue reported',
    ]);
    const tags = [...bodyRows(container)[3].querySelectorAll('td:nth-child(5) .bp6-tag')];
    expect(tags.map((tag) => tag.textContent)).toEqual(['Parameter Set available', 'At the laser']);
    expect(tags[1].className).toContain('bp6-intent-primary');
  });

  it('speaks German in German', async () => {
    const { container } = await renderList('', 'de');
    await waitFor(() => expect(bodyRows(container)).toHaveLength(5));
    expect(rowTexts(container)[3]).toEqual(['Schneider, Maria', '23.04.1951', 'Weiblich', '18.11.2026', 'Parametersatz verfügbar Vom Laser empfangen', '2']);
    expect(getByText(container, 'button', 'NPT-Datei hochladen')).toBeTruthy();
  });

  it('shows skeleton rows while the first page loads', async () => {
    let answer = () => {};
    listAnswer = async () => {
      await new Promise<void>((resolve) => (answer = resolve));
      return HttpResponse.json(EXAMPLES);
    };
    const { container } = await renderList();
    const table = container.querySelector('table');
    expect(table?.getAttribute('aria-busy')).toBe('true');
    expect(bodyRows(container).every((row) => row.getAttribute('aria-hidden') === 'true' && row.querySelector('.bp6-skeleton'))).toBe(true);
    act(() => answer());
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    expect(table?.getAttribute('aria-busy')).toBe('false');
  });

  it('offers both ways to add a patient when the clinic has none yet', async () => {
    listAnswer = () => answerList([]);
    const { container } = await renderList();
    await waitFor(() => getByText(container, 'h4, h3, h2, .bp6-non-ideal-state *', 'No patients yet'));
    const empty = container.querySelector<HTMLElement>('.bp6-non-ideal-state')!;
    // The add menu's ▾ is named by its label (no text of its own).
    expect([...empty.querySelectorAll('button')].map((button) => button.textContent || button.getAttribute('aria-label'))).toEqual([
      'Add new patient',
      'More ways to add',
      'Upload NPT file',
    ]);
    await click(getByText(empty, 'button', 'Upload NPT file'));
    // The upload dialog of src/components/exam-upload, for any patient.
    expect((await dialog('Upload NPT file')).querySelector('input[type="file"]')).not.toBeNull();
  });

  it('says when no patient matches the filters, and clears them', async () => {
    listAnswer = (query) => (query.get('search') ? answerList([]) : HttpResponse.json(EXAMPLES));
    const { container, router } = await renderList('?search=Nobody');
    await waitFor(() => getByText(container, '.bp6-non-ideal-state *', 'No patient matches'));
    await click(getByText(container, '.bp6-non-ideal-state button', 'Clear filters'));
    await waitFor(() => expect(bodyRows(container)).toHaveLength(5));
    expect(router.state.location.search).toBe('');
  });

  it('shows a failure with its reason and tries again', async () => {
    listAnswer = () => HttpResponse.json({ status: 'Error', message: 'The database is not reachable' }, { status: 503 });
    const { container } = await renderList();
    await waitFor(() => getByText(container, '.bp6-non-ideal-state *', 'The patient list could not be loaded'));
    expect(container.textContent).toContain('The database is not reachable');
    listAnswer = () => HttpResponse.json(EXAMPLES);
    await click(getByText(container, 'button', 'Try again'));
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
  });

  it('falls back to the default view for values the URL cannot mean', async () => {
    const { container } = await renderList('?sort=age&page=abc&more=99&planStatus=lost&birthdayFrom=1950-02-30');
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    expect(Object.fromEntries(listRequests[0])).toEqual({ page: '1', perPage: '20', sort: '-latestSessionDate' });
  });
});

describe('sorting, filters and pages in the URL', () => {
  it('sorts by a column header: ascending first, then descending, with aria-sort', async () => {
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const birthday = () => header(container, 'Birthday');
    expect(birthday().getAttribute('aria-sort')).toBe('none');
    expect(header(container, 'Latest session').getAttribute('aria-sort')).toBe('descending');

    await click(birthday().querySelector('button')!);
    await waitFor(() => expect(birthday().getAttribute('aria-sort')).toBe('ascending'));
    expect(router.state.location.search).toBe('?sort=birthday');
    await waitFor(() => expect(listRequests.at(-1)?.get('sort')).toBe('birthday'));

    await click(birthday().querySelector('button')!);
    await waitFor(() => expect(birthday().getAttribute('aria-sort')).toBe('descending'));
    expect(router.state.location.search).toBe('?sort=-birthday');
    // Sorting is a step back in the history.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(birthday().getAttribute('aria-sort')).toBe('ascending'));
  });

  it('keeps the previous rows, marked as loading, until the new order arrives', async () => {
    let answer = () => {};
    listAnswer = async (query) => {
      if (query.get('sort') === 'secondName') await new Promise<void>((resolve) => (answer = resolve));
      return answerList(query.get('sort') === 'secondName' ? [...EXAMPLES.data].reverse() : EXAMPLES.data);
    };
    const { container } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const table = container.querySelector('table')!;
    expect(table.getAttribute('aria-busy')).toBe('false');

    await click(header(container, 'Patient').querySelector('button')!);
    await waitFor(() => expect(table.getAttribute('aria-busy')).toBe('true'));
    expect(container.querySelector('.mp-table-refreshing')).not.toBeNull();
    expect(nameLinks(container)[0].textContent).toBe('Fischer, Elena');

    act(() => answer());
    await waitFor(() => expect(nameLinks(container)[0].textContent).toBe('Wagner, Klaus'));
    expect(table.getAttribute('aria-busy')).toBe('false');
    expect(container.querySelector('.mp-table-refreshing')).toBeNull();
  });

  it('searches after a pause in typing, and filters by plan status and birthday range', async () => {
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    await type(getByLabel(container, 'Search by name'), 'Maria');
    await waitFor(() => expect(router.state.location.search).toBe('?search=Maria'));
    await waitFor(() => expect(listRequests.at(-1)?.get('search')).toBe('Maria'));

    await select(getByLabel<HTMLSelectElement>(container, 'Parameter set status'), 'plan_available');
    await waitFor(() => expect(listRequests.at(-1)?.get('planStatus')).toBe('plan_available'));
    // Typed as English writes dates (day first), sent as the contract's.
    await type(getByLabel(container, 'Born from'), '1/1/1940');
    await type(getByLabel(container, 'Born until'), '31/12/1960');
    await waitFor(() =>
      expect(Object.fromEntries(listRequests.at(-1)!)).toEqual({
        page: '1',
        perPage: '20',
        sort: '-latestSessionDate',
        search: 'Maria',
        planStatus: 'plan_available',
        birthdayFrom: '1940-01-01',
        birthdayTo: '1960-12-31',
      }),
    );

    // A reversed range: a message, the fields marked, no request.
    const asked = listRequests.length;
    await type(getByLabel(container, 'Born until'), '01/01/1930');
    const alert = await waitFor(() => getByText(container, '[role="alert"]', 'The end of the birthday range lies before its start. Please correct one of the two dates.'));
    expect(getByLabel(container, 'Born until').getAttribute('aria-invalid')).toBe('true');
    expect(getByLabel(container, 'Born until').getAttribute('aria-describedby')?.split(' ')[0]).toBe(alert.id);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(listRequests).toHaveLength(asked);
  });

  it('shows the last page for a link to a page the list no longer has', async () => {
    listAnswer = (query) => answerList(patientsOfPage(Number(query.get('page')), 45), { page: Number(query.get('page')), total: 45 });
    const { container, router } = await renderList('?search=Test&page=7');
    await waitFor(() => expect(router.state.location.search).toBe('?search=Test&page=3'));
    await waitFor(() => expect(nameLinks(container).map((link) => link.textContent)).toEqual(['Test, P41', 'Test, P42', 'Test, P43', 'Test, P44', 'Test, P45']));
    expect(container.textContent).toContain('41–45 of 45 patients');
  });

  it('keeps every filter of changes made faster than the URL follows', async () => {
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    // Both dates in one go, before React renders the first change.
    await act(async () => {
      for (const [label, value] of [['Born from', '1960-01-01'], ['Born until', '1950-01-01']]) {
        const input = getByLabel(container, label);
        setter?.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await waitFor(() => expect(router.state.location.search).toBe('?birthdayFrom=1960-01-01&birthdayTo=1950-01-01'));
    expect(getByLabel(container, 'Born from').value).toBe('1960-01-01');
    expect(getByLabel(container, 'Born until').value).toBe('1950-01-01');
    await waitFor(() => getByText(container, '[role="alert"]', 'The end of the birthday range lies before its start. Please correct one of the two dates.'));
  });

  it('refuses a birthday that is no date or outside 1900 to today, visibly and without asking the server', async () => {
    const { container, router } = await renderList('?birthdayFrom=1950-03-01');
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const from = getByLabel(container, 'Born from');
    expect(from.value).toBe('01/03/1950');
    const asked = listRequests.length;
    const leave = () => act(async () => from.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    const refusal = () => [...container.querySelectorAll('[role="alert"]')].map((alert) => alert.textContent);
    for (const [typed, reason] of [
      ['23/04/21960', 'Please enter the date as DD/MM/YYYY, e.g. 23/04/1951'],
      ['31/02/1951', 'This date does not exist – please check the day and month'],
      ['31/12/1899', `Please enter a date between 01/01/1900 and ${localToday().split('-').reverse().join('/')}`],
    ]) {
      await type(from, typed);
      await leave();
      expect(refusal()).toEqual([`Born from: ${reason}`]);
      expect(from.value).toBe(typed);
      expect(from.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(from.getAttribute('aria-describedby')!.split(' ')[0])?.textContent).toBe(`Born from: ${reason}`);
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(listRequests).toHaveLength(asked);
    expect(router.state.location.search).toBe('?birthdayFrom=1950-03-01');

    // A date again is taken, and shown in the field's form once left.
    await type(from, '2.3.1950');
    await waitFor(() => expect(router.state.location.search).toBe('?birthdayFrom=1950-03-02'));
    await leave();
    expect(from.value).toBe('02/03/1950');
    expect(refusal()).toEqual([]);

    // "Clear filters" empties a refused text too.
    await type(from, '1.1.19');
    await leave();
    await click(getByText(container, 'button', 'Clear filters'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(from.value).toBe('');
    expect(refusal()).toEqual([]);
  });

  it('shows and takes the German form in German, and follows the language when it changes', async () => {
    const { container, router, i18n } = await renderList('?birthdayFrom=1950-03-01', 'de');
    const from = getByLabel(container, 'Geboren ab');
    expect(from.value).toBe('01.03.1950');
    expect(from.placeholder).toBe('TT.MM.JJJJ');
    expect(document.getElementById(from.getAttribute('aria-describedby')!)?.textContent).toBe('Datum mit Tag, Monat und Jahr, z. B. 23.04.1951');
    await type(getByLabel(container, 'Geboren bis'), '23.4.1951');
    await waitFor(() => expect(router.state.location.search).toBe('?birthdayFrom=1950-03-01&birthdayTo=1951-04-23'));
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    await waitFor(() => expect(getByLabel(container, 'Born from').value).toBe('01/03/1950'));
    expect(getByLabel(container, 'Born until').value).toBe('23/04/1951');
    expect(getByLabel(container, 'Born until').placeholder).toBe('DD/MM/YYYY');
  });

  it('pages with previous/next and the numbers, and "Load more" appends the next page', async () => {
    listAnswer = (query) => answerList(patientsOfPage(Number(query.get('page')), 45), { page: Number(query.get('page')), total: 45 });
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(20));
    expect(container.textContent).toContain('1–20 of 45 patients');
    const pages = () => container.querySelector<HTMLElement>('nav[aria-label="Pages"]')!;
    expect([...pages().querySelectorAll('button')].map((button) => button.getAttribute('aria-label'))).toEqual([
      'Previous page',
      'Page 1',
      'Page 2',
      'Page 3',
      'Next page',
    ]);
    expect(pages().querySelector<HTMLButtonElement>('[aria-label="Previous page"]')?.disabled).toBe(true);

    await click(pages().querySelector<HTMLButtonElement>('[aria-label="Next page"]')!);
    await waitFor(() => expect(nameLinks(container)[0]?.textContent).toBe('Test, P21'));
    expect(router.state.location.search).toBe('?page=2');
    expect(pages().querySelector('[aria-label="Page 2"]')?.getAttribute('aria-current')).toBe('page');

    await click(getByText(container, 'button', 'Load more'));
    await waitFor(() => expect(nameLinks(container)).toHaveLength(25));
    expect(nameLinks(container).at(-1)?.textContent).toBe('Test, P45');
    expect(router.state.location.search).toBe('?page=2&more=1');
    expect(container.textContent).toContain('21–45 of 45 patients');
    expect([...container.querySelectorAll('button')].some((button) => button.textContent === 'Load more')).toBe(false);
    expect(pages().querySelector<HTMLButtonElement>('[aria-label="Next page"]')?.disabled).toBe(true);

    await click(pages().querySelector<HTMLButtonElement>('[aria-label="Page 1"]')!);
    await waitFor(() => expect(nameLinks(container)[0]?.textContent).toBe('Test, P1'));
    expect(nameLinks(container)).toHaveLength(20);
  });
});

describe('keyboard', () => {
  it('/ focuses the search unless the user is typing; the arrows move through the rows; Enter opens the card', async () => {
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const search = getByLabel(container, 'Search by name');

    await press(document.body, '/');
    expect(document.activeElement).toBe(search);
    const from = getByLabel(container, 'Born from');
    from.focus();
    await press(from, '/');
    expect(document.activeElement).toBe(from);

    const links = nameLinks(container);
    // One tab stop for the rows (roving focus).
    expect(links.map((link) => link.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    links[0].focus();
    await press(links[0], 'ArrowDown');
    expect(document.activeElement).toBe(links[1]);
    await press(links[1], 'End');
    expect(document.activeElement).toBe(links[4]);
    await press(links[4], 'ArrowDown');
    expect(document.activeElement).toBe(links[4]);
    await press(links[4], 'ArrowUp');
    expect(document.activeElement).toBe(links[3]);

    // Enter on a focused link is a click in the browser.
    await click(links[3]);
    await waitFor(() => expect(router.state.location.search).toBe(`?patientId=${EXAMPLES.data[3].id}`));
    expect(router.state.location.pathname).toBe('/physician/patient-card');
  });

  it('ArrowDown in the search sends what was typed at once and moves to the first row once its rows are shown; ArrowUp goes back', async () => {
    const maria = EXAMPLES.data[3];
    // The search's rows come a moment later than the list's: ArrowDown must not land on the old first row.
    listAnswer = async (query) => {
      if (!query.get('search')) return HttpResponse.json(EXAMPLES);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return answerList([maria]);
    };
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const search = getByLabel(container, 'Search by name');
    search.focus();
    await type(search, maria.secondName);
    await press(search, 'ArrowDown');
    // Sent without the typing pause.
    expect(listRequests.at(-1)?.get('search')).toBe(maria.secondName);
    expect(document.activeElement).toBe(search);
    await waitFor(() => expect(nameLinks(container)).toHaveLength(1));
    await waitFor(() => expect(document.activeElement).toBe(nameLinks(container)[0]));
    expect(router.state.location.search).toBe(`?search=${maria.secondName}`);
    // Only one request for the search: the pause that follows sends nothing again.
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(listRequests.filter((query) => query.get('search'))).toHaveLength(1);

    await press(nameLinks(container)[0], 'ArrowUp');
    expect(document.activeElement).toBe(search);
    // With the rows of the search already shown, the focus moves at once.
    await press(search, 'ArrowDown');
    expect(document.activeElement).toBe(nameLinks(container)[0]);
  });

  it('ArrowDown while the list still loads: the focus waits for the search’s rows, past the list’s first answer', async () => {
    const maria = EXAMPLES.data[3];
    listAnswer = async (query) => {
      await new Promise((resolve) => setTimeout(resolve, query.get('search') ? 600 : 300));
      return query.get('search') ? answerList([maria]) : HttpResponse.json(EXAMPLES);
    };
    const { container } = await renderRoutes(createRoutes, { path: '/physician/list', language: 'en' });
    const search = await waitFor(() => getByLabel(container, 'Search by name'));
    const focused: string[] = [];
    container.addEventListener('focusin', (event) => focused.push((event.target as HTMLElement).textContent ?? ''));
    search.focus();
    await type(search, maria.secondName);
    await press(search, 'ArrowDown');
    // The list's first answer (without the search) arrives first: no row of it takes the focus.
    await waitFor(() => expect(nameLinks(container)).toHaveLength(1));
    await waitFor(() => expect(document.activeElement).toBe(nameLinks(container)[0]));
    expect(focused).toEqual(['', `${maria.secondName}, ${maria.name}`]);
  }, 10_000);

  it('opens the card from a click anywhere on the row', async () => {
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    await click(bodyRows(container)[1].querySelectorAll('td')[4]);
    await waitFor(() => expect(router.state.location.search).toBe(`?patientId=${EXAMPLES.data[1].id}`));
  });
});

describe('recently opened', () => {
  it('names the last patients this user opened, and no one else’s', async () => {
    rememberPatient(PROFILE.data.id, { id: EXAMPLES.data[4].id, name: 'Klaus', secondName: 'Wagner' });
    rememberPatient(PROFILE.data.id, { id: EXAMPLES.data[3].id, name: 'Maria', secondName: 'Schneider' });
    rememberPatient('someone-else', { id: EXAMPLES.data[0].id, name: 'Elena', secondName: 'Fischer' });
    const { container } = await renderList();
    const recent = container.querySelector<HTMLElement>('nav[aria-label="Recently opened"]')!;
    expect([...recent.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Schneider, Maria', `/physician/patient-card?patientId=${EXAMPLES.data[3].id}`],
      ['Wagner, Klaus', `/physician/patient-card?patientId=${EXAMPLES.data[4].id}`],
    ]);
  });
});

describe('while a session is processed', () => {
  it('asks again every few seconds until no listed session is in progress', async () => {
    const processing = EXAMPLES.data[0];
    let answers = 0;
    listAnswer = () => {
      answers += 1;
      const planStatus = answers < 3 ? 'processing' : 'planning';
      return answerList([{ ...processing, planStatus }]);
    };
    const { container } = await renderList();
    await waitFor(() => expect(rowTexts(container)[0]?.[4]).toBe('Processing'));
    await waitFor(() => expect(rowTexts(container)[0]?.[4]).toBe('In planning'), 8000);
    expect(answers).toBe(3);
    await act(() => new Promise((resolve) => setTimeout(resolve, 3500)));
    expect(answers).toBe(3);
  }, 15_000);
});

describe('add new patient', () => {
  const openAddDialog = async (container: HTMLElement) => {
    await click(getByText(container, '.mp-page-actions button', 'Add new patient'));
    return dialog('Add new patient');
  };
  const submit = (form: HTMLElement) => click(getByText(form, 'button', 'Add patient'));
  const errorsIn = (form: HTMLElement) => [...form.querySelectorAll('.bp6-form-helper-text')].map((helper) => helper.textContent);

  it('refuses missing fields and a future birthday before asking the server', async () => {
    let created = 0;
    server.use(getCreatePatientMockHandler(() => ((created += 1), getCreatePatientResponseMock())));
    const { container } = await renderList();
    const form = await openAddDialog(container);
    await submit(form);
    await waitFor(() => expect(errorsIn(form).filter((text) => text === 'This field is required')).toHaveLength(4));
    // The first field refused, in the order shown, takes the focus.
    expect(document.activeElement).toBe(getByLabel(form, 'Name'));

    await type(getByLabel(form, 'Name'), 'Greta');
    await type(getByLabel(form, 'Second name'), 'Krause');
    await type(getByLabel(form, 'Birthday'), '01/01/2999');
    await click(form.querySelector<HTMLInputElement>('input[type="radio"][value="female"]')!);
    await submit(form);
    await waitFor(() => expect(errorsIn(form)).toContain('The birthday cannot be in the future'));
    await type(getByLabel(form, 'Birthday'), '31/12/1899');
    await submit(form);
    await waitFor(() => expect(errorsIn(form)).toContain('Please enter a birthday from 1900 on'));
    // A year of five digits (the date picker took 21960) is no date: refused with the form to type.
    await type(getByLabel(form, 'Birthday'), '23/04/21960');
    await submit(form);
    await waitFor(() => expect(errorsIn(form)).toContain('Please enter the date as DD/MM/YYYY, e.g. 23/04/1951'));
    expect(document.activeElement).toBe(getByLabel(form, 'Birthday'));
    expect(created).toBe(0);
  });

  it('shows the server’s reasons at their fields and keeps what was typed', async () => {
    server.use(
      http.post('*/patients', () =>
        HttpResponse.json(
          { status: 'Error', message: 'The given data was invalid.', errors: { secondName: ['Second name has invalid characters.'] } },
          { status: 422 },
        ),
      ),
    );
    const { container } = await renderList();
    const form = await openAddDialog(container);
    await type(getByLabel(form, 'Name'), 'Greta');
    await type(getByLabel(form, 'Second name'), 'Kr@use');
    await type(getByLabel(form, 'Birthday'), '1948-02-29');
    await click(form.querySelector<HTMLInputElement>('input[type="radio"][value="female"]')!);
    await submit(form);
    await waitFor(() => expect(errorsIn(form)).toContain('Second name has invalid characters.'));
    expect(getByLabel(form, 'Second name').value).toBe('Kr@use');
    expect(getByLabel(form, 'Second name').getAttribute('aria-invalid')).toBe('true');
  });

  describe('a likely duplicate', () => {
    const maria = { id: EXAMPLES.data[3].id, name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female', status: 'active' };
    const archived = { ...maria, id: '3b5d7f91-2c4e-4a6b-8d0f-1e3a5c7e9b24', name: 'María', status: 'archived' };
    let sent: Record<string, unknown>[];
    beforeEach(() => {
      sent = [];
      server.use(
        http.post('*/patients', async ({ request }) => {
          const body = (await request.json()) as Record<string, unknown>;
          sent.push(body);
          if (body.confirmDuplicate === true) return HttpResponse.json(getCreatePatientResponseMock(), { status: 201 });
          return HttpResponse.json(
            {
              status: 'Error',
              message: '2 patients with this name and birthday already exist.',
              code: 'patient.likely_duplicate',
              patients: [maria, archived],
            },
            { status: 409 },
          );
        }),
      );
    });

    const addMaria = async (container: HTMLElement) => {
      const form = await openAddDialog(container);
      await type(getByLabel(form, 'Name'), 'Maria');
      await type(getByLabel(form, 'Second name'), 'Schneider');
      await type(getByLabel(form, 'Birthday'), '1951-04-23');
      await click(form.querySelector<HTMLInputElement>('input[type="radio"][value="female"]')!);
      await type(form.querySelector('textarea')!, 'Referred by Dr. Lang.');
      await submit(form);
      await waitFor(() => expect(form.querySelector('.mp-duplicate-warning')).not.toBeNull());
      return form;
    };
    const buttonTexts = (element: Element) => [...element.querySelectorAll('button')].map((button) => button.textContent);

    it('names the patients it may be, takes the focus, keeps what was typed and offers "Create anyway" instead of "Add patient"', async () => {
      const { container } = await renderList();
      const form = await addMaria(container);
      const warning = form.querySelector<HTMLElement>('.mp-duplicate-warning')!;
      expect(document.activeElement).toBe(warning);
      expect(warning.querySelector('h3')?.textContent).toBe('Already a patient?');
      expect(warning.textContent).toContain('2 patients with this name and birthday already exist.');
      const items = [...warning.querySelectorAll('li')].map((item) => item.textContent);
      expect(items).toEqual([
        'Maria Schneiderborn 23/04/1951 · FemaleOpen card',
        'María Schneiderborn 23/04/1951 · FemaleArchived: an IT administrator can bring the patient back from the archive.',
      ]);
      // The button names whose card it opens.
      const open = getByText(warning, 'button', 'Open card');
      expect(document.getElementById(open.getAttribute('aria-describedby')!)?.textContent).toBe('Maria Schneiderborn 23/04/1951 · Female');
      expect(getByLabel(form, 'Name').value).toBe('Maria');
      expect(form.querySelector('textarea')?.value).toBe('Referred by Dr. Lang.');
      expect(form.querySelector('.mp-form-alert')).toBeNull();
      expect(buttonTexts(form.querySelector('.bp6-dialog-footer')!)).toEqual(['Cancel', 'Create anyway']);
      expect(sent).toHaveLength(1);

      // Another name is asked about anew.
      await type(getByLabel(form, 'Name'), 'Marianne');
      await waitFor(() => expect(form.querySelector('.mp-duplicate-warning')).toBeNull());
      expect(buttonTexts(form.querySelector('.bp6-dialog-footer')!)).toEqual(['Cancel', 'Add patient']);
    });

    it('creates the patient anyway when asked, with what was typed, and opens the new card', async () => {
      const { container, router } = await renderList();
      const form = await addMaria(container);
      await click(getByText(form, 'button', 'Create anyway'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/physician/patient-card'));
      expect(sent).toEqual([
        { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female', description: 'Referred by Dr. Lang.' },
        { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female', description: 'Referred by Dr. Lang.', confirmDuplicate: true },
      ]);
      expect(router.state.location.search).toBe(`?patientId=${getCreatePatientResponseMock().data.id}`);
    });

    it('opens the card of the patient it may be', async () => {
      const { container, router } = await renderList();
      const form = await addMaria(container);
      await click(getByText(form, 'button', 'Open card'));
      await waitFor(() => expect(router.state.location.search).toBe(`?patientId=${maria.id}`));
      expect(sent).toHaveLength(1);
      expect(document.querySelector('[role="dialog"]')).toBeNull();
    });

    it('is told in German', async () => {
      const { container } = await renderList('', 'de');
      await click(getByText(container, '.mp-page-actions button', 'Neuen Patienten anlegen'));
      const form = await dialog('Neuen Patienten anlegen');
      await type(getByLabel(form, 'Vorname'), 'Maria');
      await type(getByLabel(form, 'Nachname'), 'Schneider');
      await type(getByLabel(form, 'Geburtsdatum'), '1951-04-23');
      await click(form.querySelector<HTMLInputElement>('input[type="radio"][value="female"]')!);
      await click(getByText(form, 'button', 'Patienten anlegen'));
      await waitFor(() => expect(form.querySelector('.mp-duplicate-warning h3')?.textContent).toBe('Bereits angelegt?'));
      expect(form.querySelector('.mp-duplicate-warning li')?.textContent).toBe('Maria Schneidergeb. 23.04.1951 · WeiblichKarte öffnen');
      expect(buttonTexts(form.querySelector('.bp6-dialog-footer')!)).toEqual(['Abbrechen', 'Trotzdem anlegen']);
    });
  });

  it('confirms the new patient, refreshes the list and opens their card', async () => {
    const sent: unknown[] = [];
    server.use(
      getCreatePatientMockHandler(async ({ request }) => {
        sent.push(await request.json());
        return getCreatePatientResponseMock();
      }),
      getGetPatientMockHandler({ status: 'Success', data: getCreatePatientResponseMock().data }),
    );
    const { container, router } = await renderList();
    await waitFor(() => expect(nameLinks(container)).toHaveLength(5));
    const asked = listRequests.length;
    const form = await openAddDialog(container);
    await type(getByLabel(form, 'Name'), ' Peter ');
    await type(getByLabel(form, 'Second name'), 'Neumann');
    await type(getByLabel(form, 'Birthday'), '1961-07-08');
    await click(form.querySelector<HTMLInputElement>('input[type="radio"][value="male"]')!);
    await submit(form);

    await waitFor(() => expect(router.state.location.pathname).toBe('/physician/patient-card'));
    expect(sent).toEqual([{ name: 'Peter', secondName: 'Neumann', birthday: '1961-07-08', gender: 'male' }]);
    expect(router.state.location.search).toBe(`?patientId=${getCreatePatientResponseMock().data.id}`);
    expect(container.querySelector('.mp-notifications')?.textContent).toContain('Patient added successfully');
    expect(listRequests.length).toBeGreaterThan(asked);
  });
});
