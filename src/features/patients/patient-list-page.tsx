import { Button, NonIdealState } from '@blueprintjs/core';
import { useQueries } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigation, useSearchParams } from 'react-router-dom';
import { getListPatientsQueryOptions } from '@generated/hooks/patients/patients';
import type { Patient } from '@generated/model/patient';
import { PlanStatus } from '@generated/model/planStatus';
import type { UploadPurpose } from '@/components/exam-upload/exam-upload-dialog';
import { useFailureMessage } from '@/components/form-fields';
import { paths } from '@/config/paths';
import { recentPatients } from '@/lib/recent-patients';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { AddMenu } from './add-menu';
import { ListFilters } from './list-filters';
import { ListPaging } from './list-paging';
import {
  birthdayRangeProblem,
  listParams,
  readListView,
  shownPages,
  withFilter,
  writeListView,
  type ListView,
} from './list-view';
import { focusFirstRow, PatientTable } from './patient-table';
import './icons';
import './patients.css';
import { useRefetchInterval } from '@/lib/realtime';

// The route's loader comes with the page's module (src/app/router.tsx lazy-loads both at once).
export { patientListLoader } from './patient-list-loader';

// The dialogs load when first opened: the list shows without their code.
const AddPatientDialog = lazy(async () => ({ default: (await import('./add-patient-dialog')).AddPatientDialog }));
const ExamUploadDialog = lazy(async () => ({
  default: (await import('@/components/exam-upload/exam-upload-dialog')).ExamUploadDialog,
}));

/** While a listed session is being processed, the list asks this often while realtime is down (rarer while up). */
const PROCESSING_REFETCH_MS = 3000;
const IN_PROGRESS: PlanStatus[] = [PlanStatus.file_uploaded, PlanStatus.processing];

/** `/` focuses the search from anywhere on the page, unless the user is typing somewhere. */
function useSearchShortcut(focusSearch: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return;
      event.preventDefault();
      focusSearch();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [focusSearch]);
}

function RecentlyOpened({ userId }: { userId: string }) {
  const { t } = useTranslation('patientList');
  const recent = recentPatients(userId);
  if (recent.length === 0) return null;
  return (
    <nav className="mp-recent-patients" aria-label={t('recent.label')}>
      <span className="mp-recent-title">{t('recent.label')}:</span>
      <ul>
        {recent.map((patient) => (
          <li key={patient.id}>
            <Link to={paths.physician.patientCard.getHref(patient.id)}>
              {t('patientName', { name: patient.name, secondName: patient.secondName })}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The rows of the pages shown, in order: the same array until a page's answer changes, so that the memoised table
 * is not drawn again when the page renders for anything else.
 */
function useRows(pageAnswers: ({ data: Patient[] } | undefined)[]): Patient[] {
  const last = useRef<{ answers: typeof pageAnswers; rows: Patient[] }>({ answers: [], rows: [] });
  const { answers } = last.current;
  if (pageAnswers.length !== answers.length || pageAnswers.some((answer, index) => answer !== answers[index])) {
    last.current = { answers: pageAnswers, rows: pageAnswers.flatMap((answer) => answer?.data ?? []) };
  }
  return last.current.rows;
}

/** /physician/list: the active patients of the clinic, for physicians and nurses (their home page). */
export function PatientListPage() {
  const { t } = useTranslation('patientList');
  const profile = useSignedInProfile();
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readListView(params);
  const searchRef = useRef<HTMLInputElement>(null);
  const captionId = useId();
  const [dialog, setDialog] = useState<'add' | 'upload' | null>(null);
  const [purpose, setPurpose] = useState<UploadPurpose>();

  // A search typed just before a click on a patient must not pull the user back while the card loads.
  const navigation = useNavigation();
  const leaving = useRef(false);
  leaving.current = navigation.state !== 'idle' && navigation.location.pathname !== paths.physician.list.path;
  // The view last asked for: the URL follows a change a moment later (a navigation), and a second change
  // made before that (two fields filled quickly) must build on the first, not undo it.
  const query = params.toString();
  const asked = useRef({ query, view });
  if (asked.current.query !== query) asked.current = { query, view };
  const show = useCallback(
    (next: ListView, { replace = false } = {}) => {
      if (leaving.current) return;
      asked.current.view = next;
      setParams(writeListView(next), { replace });
    },
    [setParams],
  );
  // Filters replace the history entry (each typed word is no step back); sorting and pages add one.
  const onFilter = (change: Partial<Omit<ListView, 'page' | 'more'>>) =>
    show(withFilter(asked.current.view, change), { replace: true });
  const onSort = useCallback((sort: ListView['sort']) => show(withFilter(asked.current.view, { sort })), [show]);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  useSearchShortcut(focusSearch);

  const rangeProblem = birthdayRangeProblem(view);
  const refetchInterval = useRefetchInterval(PROCESSING_REFETCH_MS);
  const pages = useQueries({
    queries: shownPages(view).map((page) =>
      getListPatientsQueryOptions(listParams(view, page), {
        query: {
          enabled: !rangeProblem,
          refetchInterval: (query) => refetchInterval(query.state.data?.data.some((patient) => IN_PROGRESS.includes(patient.planStatus)) ?? false),
        },
      }),
    ),
  });
  // A new sort or filter is another query (useQueries keeps no placeholder across keys): until its answer
  // arrives the rows shown stay (no flash of the skeleton, and the focus stays on the row it was on).
  const settled = pages.every((page) => page.data || page.isError);
  const current = {
    patients: useRows(pages.map((page) => page.data)),
    meta: pages.findLast((page) => page.data)?.data?.meta,
  };
  const lastSettled = useRef(current);
  if (settled) lastSettled.current = current;
  const { patients, meta } = settled ? current : lastSettled.current;
  const loading = !rangeProblem && !settled && !meta;
  // The rows of the previous sort, filter or page, shown while the new ones load: marked as such, so that
  // nobody reads the old order under the new column's arrow. ("Load more" keeps the rows shown as they are.)
  const refreshing = !rangeProblem && !loading && !settled && !pages[0]?.data;
  const failed = pages.find((page) => page.isError && !page.data);
  const filtered = Boolean(view.search.trim() || view.birthdayFrom || view.birthdayTo || view.planStatus);
  // A link to a page the list no longer has (patients left it since the link was made): its last page.
  const pastTheEnd = settled && meta && meta.total > 0 && view.page > meta.lastPage ? meta.lastPage : null;
  useEffect(() => {
    if (pastTheEnd !== null) show({ ...asked.current.view, page: pastTheEnd, more: 0 }, { replace: true });
  }, [pastTheEnd, show]);
  // ArrowDown in the search (what was typed is sent at once): the first row takes the focus once the rows of that
  // search are shown, not the rows shown before, if the focus is still in the search by then. Compared with the
  // view of a committed render: the router's update of the URL is a transition, which a render for an answer that
  // arrives meanwhile may set aside.
  const rowsWanted = useRef<string | null>(null);
  const toFirstRow = (search = rowsWanted.current) => {
    const shown = settled && view.search === search;
    rowsWanted.current = shown ? null : search;
    if (shown && document.activeElement === searchRef.current) focusFirstRow();
  };
  useEffect(() => {
    if (rowsWanted.current !== null) toFirstRow();
  });
  // Another page (previous, next, a number): its first row takes the focus once its rows are shown. The button
  // pressed may be disabled or gone on the new page, and the focus would fall to the page's body.
  const pageWanted = useRef<number | null>(null);
  useEffect(() => {
    if (pageWanted.current === null || !settled || view.page !== pageWanted.current) return;
    pageWanted.current = null;
    focusFirstRow();
  });
  const toPage = (page: number) => {
    pageWanted.current = page;
    show({ ...view, page, more: 0 });
  };

  const upload = (why?: UploadPurpose) => {
    setPurpose(why);
    setDialog('upload');
  };
  const actions = (
    <>
      <div className="mp-add-group">
        <Button intent="primary" icon="add" onClick={() => setDialog('add')}>
          {t('actions.addPatient')}
        </Button>
        {/* The specification's "create new patient from an NPT file" and "add new session from an NPT file", where a
            user looks for adding: both the one upload (the server finds the file's patient or creates them), each
            with its own title and what it will do. */}
        <AddMenu
          onChoose={(choice) => (choice === 'patient' ? setDialog('add') : upload(choice === 'newPatientFromNpt' ? 'newPatient' : 'newSession'))}
        />
      </div>
      <Button icon="upload" onClick={() => upload()}>
        {t('actions.uploadNpt')}
      </Button>
    </>
  );

  let content;
  if (failed) {
    content = (
      <NonIdealState
        className="mp-list-state"
        title={t('states.errorTitle')}
        description={failureMessage(failed.error)}
        action={<Button onClick={() => void failed.refetch()}>{t('states.retry')}</Button>}
      />
    );
  } else if (!loading && !rangeProblem && meta?.total === 0) {
    content = filtered ? (
      <NonIdealState
        className="mp-list-state"
        title={t('states.noMatchTitle')}
        description={t('states.noMatch')}
        action={
          <Button onClick={() => onFilter({ search: '', birthdayFrom: '', birthdayTo: '', planStatus: '' })}>
            {t('filters.clear')}
          </Button>
        }
      />
    ) : (
      <NonIdealState
        className="mp-list-state"
        title={t('states.emptyTitle')}
        description={t('states.empty')}
        action={<div className="mp-empty-actions">{actions}</div>}
      />
    );
  } else if (!rangeProblem) {
    content = (
      <>
        <PatientTable
          patients={patients}
          loading={loading}
          refreshing={refreshing}
          sort={view.sort}
          onSort={onSort}
          labelledBy={captionId}
          onUpFromFirstRow={focusSearch}
        />
        {meta && meta.total > 0 && (
          <ListPaging
            view={view}
            total={meta.total}
            lastPage={meta.lastPage}
            loadingMore={pages.some((page) => page.isPending)}
            onPage={toPage}
            onLoadMore={() => show({ ...view, more: view.more + 1 }, { replace: true })}
          />
        )}
      </>
    );
  }

  return (
    <>
      <div className="mp-page-header">
        <h1 className="mp-page-title" id={captionId}>
          {t('title')}
        </h1>
        <div className="mp-page-actions">{actions}</div>
      </div>
      <RecentlyOpened userId={profile.id} />
      <ListFilters view={view} onChange={onFilter} searchRef={searchRef} onArrowDown={toFirstRow} />
      {content}
      <Suspense>
        {dialog === 'add' && <AddPatientDialog isOpen onClose={() => setDialog(null)} />}
        {dialog === 'upload' && <ExamUploadDialog isOpen purpose={purpose} onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}
