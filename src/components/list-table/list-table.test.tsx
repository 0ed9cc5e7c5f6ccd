// A list's search, typed just before a link is followed, must not pull the user back or change the next page's
// address (CI saw a patient's access log lose its patient to the admin patient list's search).
import { act } from 'react';
import { afterEach, expect, it } from 'vitest';
import { useSearchParams } from 'react-router-dom';
import { useSearchAfterPause } from './list-table';
import { cleanup, getByLabel, renderRoutes, type, waitFor } from '@/testing/render';

afterEach(cleanup);

function SearchList() {
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useSearchAfterPause(params.get('search') ?? '', (search) => setParams({ search }, { replace: true }));
  return (
    <label>
      Search
      <input value={typed} onChange={(event) => setTyped(event.currentTarget.value)} />
    </label>
  );
}

const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

it('applies the search after the pause', async () => {
  const { container, router } = await renderRoutes([{ path: '/list', Component: SearchList }], { path: '/list' });
  await type(getByLabel(container, 'Search'), 'Weber');
  await waitFor(() => expect(router.state.location.search).toBe('?search=Weber'));
});

it('drops the search when a link was followed before the pause ended, while the next page loads', async () => {
  const { container, router } = await renderRoutes(
    [
      { path: '/list', Component: SearchList },
      // A page that takes longer to load than the pause.
      { path: '/history', lazy: () => new Promise((resolve) => setTimeout(() => resolve({ Component: () => <h1>History</h1> }), 600)) },
    ],
    { path: '/list' },
  );
  await type(getByLabel(container, 'Search'), 'Weber');
  let navigating!: Promise<void>;
  await act(async () => {
    navigating = router.navigate('/history?patientId=p1');
  });
  await pause(900);
  await act(() => navigating);
  expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/history?patientId=p1');
  expect(container.textContent).toContain('History');
});
