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
// each kind on a 1600 × 1200 image at 7.5 µm per pixel from the file).
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
  await waitFor(() => expect(rendered.container.querySelectorAll('.mp-marks-item')).toHaveLength(4));
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
    await click([...alert.querySelectorAll('button')].find((button) => text(button) === 'Delete')!);
    await waitFor(() => expect(items(container)).toHaveLength(3));
    expect(requests).toContain(`DELETE /treatments/${EXAMPLE.treatmentId}/images/${EXAMPLE.imageId}/annotations/${EXAMPLE.annotations[0].id}`);
  });

  it('is read-only on a locked session: the lock is said, no tools, opening and Delete change nothing', async () => {
    list.locked = true;
    const { container } = await render();
    expect(text(container)).toContain('This session is locked because an issue was reported');
    expect(container.querySelector('[role="toolbar"]')).toBeNull();
    expect(container.querySelectorAll('.mp-marks-item button')).toHaveLength(4);
    await click(itemButton(container, 1));
    await key(itemButton(container, 1), 'Delete');
    expect(document.querySelector('[role="dialog"], [role="alertdialog"]')).toBeNull();
    expect(requests.every((request) => request.startsWith('GET'))).toBe(true);
  });
});
