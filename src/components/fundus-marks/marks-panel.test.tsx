import {
  getListAnnotationLabelsResponseMock,
  getListImageAnnotationsResponseMock,
} from '@generated/hooks/annotations/annotations.msw';
import type { AnnotationList } from '@generated/model/annotationList';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, renderRoutes, select, waitFor } from '@/testing/render';
import { MarkFormDialog } from './mark-form-dialog';
import { DeleteMarkAlert, MarksList, MarksToolbar } from './marks-panel';
import { useFundusMarks } from './use-fundus-marks';

// The marks' list, form and delete question as a host places them, against the contract's examples (a mark of
// each kind and a ruler without a label on a 1600 × 1200 image at 7.5 µm per pixel from the file).
const server = setupServer();
const EXAMPLE = getListImageAnnotationsResponseMock().data;
const IMAGE = { id: EXAMPLE.imageId, width: 1600, height: 1200 };

let list: AnnotationList;
/** Method and path of every API request, in order. */
let requests: string[];

function Host() {
  const marks = useFundusMarks({ treatmentId: EXAMPLE.treatmentId, image: IMAGE });
  return (
    <>
      <MarksToolbar marks={marks} />
      <MarksList marks={marks} />
      <MarkFormDialog marks={marks} />
      <DeleteMarkAlert marks={marks} />
    </>
  );
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  list = structuredClone(EXAMPLE);
  requests = [];
  localStorage.setItem('token', 'demo-token');
  server.events.on('request:start', ({ request }) => requests.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api/, '')}`));
  server.use(
    http.get('*/treatments/:id/images/:imageId/annotations', () => HttpResponse.json({ status: 'Success', data: list })),
    http.get('*/clinic/annotation-labels', () => HttpResponse.json(getListAnnotationLabelsResponseMock())),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  localStorage.clear();
});
afterAll(() => server.close());

async function render(language: UiLanguage = 'en') {
  const rendered = await renderRoutes([{ path: '/', element: <Host /> }], { path: '/', language });
  await waitFor(() => expect(rendered.container.querySelectorAll('.mp-marks-item')).toHaveLength(5));
  return rendered;
}

const text = (element: Element | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
const items = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('.mp-marks-item')];
const itemButton = (container: HTMLElement, index: number) => items(container)[index].querySelector<HTMLButtonElement>('.mp-marks-item-main')!;
const key = (element: HTMLElement, name: string) =>
  act(async () => {
    element.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
  });

describe('the marks list', () => {
  it('lists each mark with its label, figures and their scale’s source, note, who and when, in the UI language', async () => {
    const { container } = await render('de');
    expect(text(items(container)[1])).toContain('2. Sonstiges');
    expect(text(items(container)[1])).toContain('2.250 µm · 1,36 PD (Maßstab aus der Datei)');
    expect(text(items(container)[1])).toContain('Fovea to the inferior arcade.');
    expect(text(items(container)[1])).toContain('Miriam Vogel');
    expect(text(items(container)[2])).toContain('Ø 600 µm · 0,36 PD · 0,2827 mm²');
    expect(text(items(container)[3])).toContain('0,2025 mm² · Umfang 1.809 µm');
    // A point measures nothing.
    expect(items(container)[0].querySelectorAll('.mp-marks-item-line')).toHaveLength(1);
  });

  it('shows a ruler without a label as "No label" beside its length, in the UI language', async () => {
    const { container } = await render('de');
    expect(text(items(container)[4])).toContain('5. Ohne Beschriftung');
    expect(text(items(container)[4])).toContain('1.575 µm · 0,95 PD (Maßstab aus der Datei)');
    cleanup();
    const english = await render('en');
    expect(text(items(english.container)[4])).toContain('5. No label');
  });

  it('opens a mark from the list (a button: Enter or a click), and a stale version reloads the marks and says so', async () => {
    const { container } = await render();
    server.use(
      http.patch('*/treatments/:id/images/:imageId/annotations/:annotationId', () =>
        HttpResponse.json({ status: 'Error', message: 'Changed meanwhile', code: 'annotation.stale', annotation: EXAMPLE.annotations[2] }, { status: 409 }),
      ),
    );
    await click(itemButton(container, 2));
    const form = await waitFor(() => {
      const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
      expect(text(dialog)).toContain('Mark 3');
      return dialog!;
    });
    expect(form.querySelector('select')!.value).toBe(EXAMPLE.annotations[2].labelId);
    await select(form.querySelector('select')!, getListAnnotationLabelsResponseMock().data[1].id);
    const reads = requests.filter((request) => request.startsWith('GET') && request.endsWith('/annotations')).length;
    await click([...form.querySelectorAll('button')].find((button) => text(button) === 'Save')!);
    await waitFor(() => expect(text(document.body)).toContain('Someone else changed this mark in the meantime; the marks have been reloaded.'));
    expect(requests).toContain(`PATCH /treatments/${EXAMPLE.treatmentId}/images/${EXAMPLE.imageId}/annotations/${EXAMPLE.annotations[2].id}`);
    await waitFor(() => expect(requests.filter((request) => request.startsWith('GET') && request.endsWith('/annotations')).length).toBe(reads + 1));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('asks before Delete removes a mark, and sends the removal', async () => {
    const { container } = await render();
    server.use(
      http.delete('*/treatments/:id/images/:imageId/annotations/:annotationId', () => {
        list.annotations = list.annotations.slice(1);
        return HttpResponse.json({ status: 'Success', message: 'Marking deleted' });
      }),
    );
    await key(itemButton(container, 0), 'Delete');
    const alert = await waitFor(() => {
      const dialog = document.querySelector<HTMLElement>('[role="alertdialog"]');
      expect(text(dialog)).toContain('Delete mark 1 (Microaneurysm)?');
      return dialog!;
    });
    // Named by its heading, described by its question.
    expect(text(document.getElementById(alert.getAttribute('aria-labelledby')!))).toBe('Delete mark 1?');
    expect(text(document.getElementById(alert.getAttribute('aria-describedby')!))).toContain('This cannot be undone.');
    await click([...alert.querySelectorAll('button')].find((button) => text(button) === 'Delete')!);
    await waitFor(() => expect(items(container)).toHaveLength(4));
    expect(requests).toContain(`DELETE /treatments/${EXAMPLE.treatmentId}/images/${EXAMPLE.imageId}/annotations/${EXAMPLE.annotations[0].id}`);
  });

  it('is read-only on a locked session: the lock is said, no tools, opening and Delete change nothing', async () => {
    list.locked = true;
    const { container } = await render();
    expect(text(container)).toContain('This session is locked because an issue was reported');
    expect(container.querySelector('[role="toolbar"]')).toBeNull();
    expect(container.querySelectorAll('.mp-marks-item button')).toHaveLength(5);
    await click(itemButton(container, 1));
    await key(itemButton(container, 1), 'Delete');
    expect(document.querySelector('[role="dialog"], [role="alertdialog"]')).toBeNull();
    expect(requests.every((request) => request.startsWith('GET'))).toBe(true);
  });
});

describe('the label of a ruler', () => {
  const created: unknown[] = [];
  beforeEach(() => {
    created.length = 0;
    server.use(
      http.post('*/treatments/:id/images/:imageId/annotations', async ({ request }) => {
        created.push(await request.json());
        return HttpResponse.json({ status: 'Success', message: 'Marking saved', data: EXAMPLE.annotations[4] }, { status: 201 });
      }),
      http.patch('*/treatments/:id/images/:imageId/annotations/:annotationId', async ({ request }) => {
        created.push(await request.json());
        return HttpResponse.json({ status: 'Success', message: 'Marking saved', data: EXAMPLE.annotations[1] });
      }),
    );
  });

  it('is optional: the form of a ruler says so, starts at "No label" and saves it without one', async () => {
    const { container } = await render();
    const form = await openEditOf(container, 4);
    expect(text(form)).toContain('Label (optional)');
    expect(text(form)).toContain('A ruler only measures; it needs no label.');
    const picker = form.querySelector('select')!;
    expect(picker.value).toBe('no-label');
    expect(text(picker.querySelector('option:checked'))).toBe('No label');
    await select(picker, EXAMPLE.annotations[0].labelId!);
    await select(picker, 'no-label');
    await click([...form.querySelectorAll('button')].find((button) => text(button) === 'Save')!);
    await waitFor(() => expect(created).toEqual([{ version: 1, labelId: null, note: null }]));
  });

  it('can be removed from a labelled ruler', async () => {
    const { container } = await render('de');
    const form = await openEditOf(container, 1);
    expect(text(form)).toContain('Beschriftung (optional)');
    const picker = form.querySelector('select')!;
    expect(picker.value).toBe(EXAMPLE.annotations[1].labelId);
    await select(picker, 'no-label');
    expect(text(picker.querySelector('option:checked'))).toBe('Ohne Beschriftung');
    await click([...form.querySelectorAll('button')].find((button) => text(button) === 'Speichern')!);
    await waitFor(() => expect(created).toEqual([{ version: 1, labelId: null, note: 'Fovea to the inferior arcade.' }]));
  });

  it('stays required for every other shape: no "No label" choice', async () => {
    const { container } = await render();
    const form = await openEditOf(container, 2);
    expect(text(form.querySelector('label'))).toBe('Label');
    expect(text(form)).not.toContain('A ruler only measures');
    expect([...form.querySelectorAll('option')].map((option) => option.value)).not.toContain('no-label');
  });
});

/** Opens the edit form of the list's mark at `index`. */
async function openEditOf(container: HTMLElement, index: number): Promise<HTMLElement> {
  await click(itemButton(container, index));
  return waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    expect(text(dialog)).toMatch(new RegExp(`(Mark|Markierung) ${index + 1}`));
    return dialog!;
  });
}
