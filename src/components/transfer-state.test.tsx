// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { TransferStatus } from '@generated/model/transferStatus';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, renderRoutes } from '@/testing/render';
import { TransferStatusTag } from './transfer-state';

afterEach(cleanup);

const STATUSES: TransferStatus[] = ['queued', 'received', 'treated', 'failed', 'cancelled'];

async function tags(language: UiLanguage) {
  const { container } = await renderRoutes(
    [{ path: '/', element: STATUSES.map((status) => <TransferStatusTag key={status} status={status} />) }],
    { path: '/', language },
  );
  return [...container.querySelectorAll('.bp6-tag')].map((tag) => ({ text: tag.textContent, className: tag.className }));
}

describe('TransferStatusTag', () => {
  it('names each state as the list and the card show it, in English and German', async () => {
    expect((await tags('en')).map((tag) => tag.text)).toEqual(['Sent to laser', 'At the laser', 'Treated', 'Transfer failed', 'Withdrawn']);
    cleanup();
    expect((await tags('de')).map((tag) => tag.text)).toEqual([
      'An Laser gesendet',
      'Vom Laser empfangen',
      'Behandelt',
      'Übertragung fehlgeschlagen',
      'Zurückgezogen',
    ]);
  });

  it('looks like the plan status beside it: treated green, failed red, withdrawn grey', async () => {
    const shown = await tags('en');
    for (const tag of shown) expect(tag.className).toContain('mp-plan-status');
    expect(shown.map((tag) => /bp6-intent-(\w+)/.exec(tag.className)?.[1] ?? 'none')).toEqual(['primary', 'primary', 'success', 'danger', 'none']);
  });
});
