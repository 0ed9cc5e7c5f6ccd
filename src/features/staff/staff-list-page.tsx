import { Button, Checkbox, Classes, HTMLTable, Icon, InputGroup } from '@blueprintjs/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useSearchParams } from 'react-router-dom';
import { useListUsers } from '@generated/hooks/users/users';
import type { User } from '@generated/model/user';
import type { UserSort } from '@generated/model/userSort';
import { useFailureMessage } from '@/components/form-fields';
import { RangePaging, SkeletonRows, useSearchAfterPause } from '@/components/list-table/list-table';
import { Select } from '@/components/select';
import { SortHeader } from '@/components/sort-header/sort-header';
import { paths } from '@/config/paths';
import { actionApplies, STAFF_ACTIONS, type StaffAction } from '@/domain/staff/lifecycle';
import { formatDateTime } from '@/lib/format';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { BulkActionDialog } from './bulk-action-dialog';
import {
  filtersOf,
  isFiltered,
  nextSort,
  PAGE_SIZES,
  readStaffView,
  ROLE_CHOICES,
  SEARCH_MAX,
  sortState,
  STATUS_CHOICES,
  staffParams,
  writeStaffView,
  type StaffScope,
  type StaffView,
} from './staff-view';
import { InviteStatusTag, UserStatusTag } from './user-status';
import { selectedCount, useStaffSelection } from './use-staff-selection';
import './staff.css';
import './icons';

const COLUMNS = 6;

const TABS: { scope: StaffScope; to: string }[] = [
  { scope: 'clinical', to: paths.admin.physicians.getHref() },
  { scope: 'itAdmins', to: paths.admin.itClinicAdmins.getHref() },
  { scope: 'deactivated', to: paths.admin.deactivated.getHref() },
];

/** The three staff lists of /admin as tabs (links: each list has its own address). */
function StaffTabs({ scope }: { scope: StaffScope }) {
  const { t } = useTranslation('staff');
  return (
    <nav aria-label={t('tabs.label')} className="mp-tabs">
      {TABS.map((tab) => (
        <NavLink
          key={tab.scope}
          to={tab.to}
          className={`mp-tab${tab.scope === scope ? ' mp-tab-active' : ''}`}
          aria-current={tab.scope === scope ? 'page' : undefined}
        >
          {t(`tabs.${tab.scope}`)}
        </NavLink>
      ))}
    </nav>
  );
}

function ColumnHeader({ column, view, onSort }: { column: 'name' | 'role' | 'status'; view: StaffView; onSort: (sort: UserSort) => void }) {
  const { t } = useTranslation('staff');
  return <SortHeader label={t(`columns.${column}`)} state={sortState(view.sort, column)} onSort={() => onSort(nextSort(view.sort, column))} />;
}

type StaffRowProps = { user: User; selfId: string; selected: boolean; onToggle: () => void };

function StaffRow({ user, selfId, selected, onToggle }: StaffRowProps) {
  const { t, i18n } = useTranslation(['staff', 'common']);
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <tr className={selected ? 'mp-row-selected' : undefined}>
      <td className="mp-check-cell">
        <Checkbox className="mp-check-cellbox" aria-label={t('selection.one', { name })} checked={selected} onChange={onToggle} />
      </td>
      <td>
        <Link to={paths.admin.editUser.getHref(user.id)} className="mp-staff-name">
          {name}
        </Link>
        {user.id === selfId && <span className="mp-muted-text"> {t('you')}</span>}
        <div className="mp-muted-text mp-staff-email">
          {/* A long address wraps before its domain, not in the middle of a word. */}
          {user.email.split('@')[0]}
          <wbr />@{user.email.split('@').slice(1).join('@')}
        </div>
      </td>
      <td>{t(`common:roles.${user.role}`)}</td>
      <td>
        <UserStatusTag status={user.status} />
      </td>
      <td>
        <InviteStatusTag user={user} />
      </td>
      <td className="mp-nowrap">{user.lastSignInAt ? formatDateTime(user.lastSignInAt, i18n.language) : <span className="mp-muted-text">—</span>}</td>
    </tr>
  );
}

/**
 * /admin, /admin/physicians, /admin/it-clinic-admin and /admin/deactivated (IT admins only): the clinic's staff
 * with role, status and invite status; search, filters, sort and page in the URL; bulk actions on a selection
 * that can span pages.
 */
export function StaffListPage({ scope }: { scope: StaffScope }) {
  const { t } = useTranslation('staff');
  const profile = useSignedInProfile();
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readStaffView(params);
  const filters = filtersOf(scope);
  const [action, setAction] = useState<StaffAction | null>(null);
  const ids = { search: useId(), role: useId(), status: useId(), perPage: useId(), caption: useId() };

  const show = (next: StaffView, replace: boolean) => setParams(writeStaffView(next), { replace });
  const [typed, setTyped] = useSearchAfterPause(view.search, (search) => show({ ...view, search, page: 1 }, true));

  const request = staffParams(scope, view);
  const query = useListUsers(request, { query: { placeholderData: keepPreviousData } });
  const users = query.data?.data ?? [];
  const meta = query.data?.meta;
  // The selection belongs to the filters, whatever the page (the request of page 1 of size 1 names them).
  const selecting = useStaffSelection(JSON.stringify(staffParams(scope, view, 1, 1)));
  const { selection } = selecting;
  const count = selectedCount(selection);
  const pageSelected = users.length > 0 && users.every((user) => selecting.isSelected(user.id));
  const somePageSelected = users.some((user) => selecting.isSelected(user.id));
  // With a known selection, an action that fits none of it is not offered; "all matching" is resolved later.
  const usable = (candidate: StaffAction) =>
    selection.kind === 'all' || [...selection.users.values()].some((user) => actionApplies(candidate, user, profile.id));
  // Why buttons are grey or look alike: one's own account is left out of what no one does to themselves, and
  // Unarchive and Restore both bring an archived user back (Restore also a deleted one).
  const ownSelected = selection.kind === 'some' && selection.users.has(profile.id);
  const notes = [
    ...(ownSelected ? [t(count === 1 ? 'selection.ownOnly' : 'selection.ownIncluded')] : []),
    ...(usable('unarchive') && usable('restore') ? [t('selection.unarchiveOrRestore')] : []),
  ];


  return (
    <>
      <div className="mp-page-header">
        <h1 className="mp-page-title">{t(`titles.${scope}`)}</h1>
        {/* A link that looks like a button: it goes to the form (Blueprint's AnchorButton would say "button"). */}
        <Link
          to={scope === 'itAdmins' ? `${paths.admin.addUser.getHref()}?role=clinic_it_admins` : paths.admin.addUser.getHref()}
          className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY} mp-link-button`}
        >
          <Icon icon="new-person" aria-hidden />
          <span className={Classes.BUTTON_TEXT}>{t('addUser')}</span>
        </Link>
      </div>
      <StaffTabs scope={scope} />
      <div className="mp-list-filters" role="search">
        <div className="mp-list-filter mp-list-search">
          <label htmlFor={ids.search}>{t('search')}</label>
          <InputGroup
            id={ids.search}
            type="search"
            leftIcon="search"
            value={typed}
            maxLength={SEARCH_MAX}
            placeholder={t('searchPlaceholder')}
            onValueChange={(value) => setTyped(value)}
          />
        </div>
        {filters.role && (
          <div className="mp-list-filter">
            <label htmlFor={ids.role}>{t('filters.role')}</label>
            <Select id={ids.role} value={view.role} onChange={(event) => show({ ...view, role: event.currentTarget.value as StaffView['role'], page: 1 }, true)}>
              {ROLE_CHOICES.map((role) => (
                <option key={role} value={role}>
                  {t(`roleChoices.${role}`)}
                </option>
              ))}
            </Select>
          </div>
        )}
        {filters.status && (
          <div className="mp-list-filter">
            <label htmlFor={ids.status}>{t('filters.status')}</label>
            <Select
              id={ids.status}
              value={view.status}
              onChange={(event) => show({ ...view, status: event.currentTarget.value as StaffView['status'], page: 1 }, true)}
            >
              {STATUS_CHOICES.map((status) => (
                <option key={status} value={status}>
                  {status === 'current' ? t('statusChoices.current') : t(`status.${status}`)}
                </option>
              ))}
            </Select>
          </div>
        )}
      </div>

      <div className="mp-selection-bar" aria-live="polite">
        {count > 0 ? (
          <>
            <span className="mp-selection-count">
              {selection.kind === 'all' ? t('selection.allMatching', { count }) : t('selection.count', { count })}
            </span>
            {selection.kind === 'some' && pageSelected && meta && meta.total > count && (
              <Button variant="minimal" intent="primary" onClick={() => selecting.selectAll(meta.total)}>
                {t('selection.selectAll', { count: meta.total })}
              </Button>
            )}
            <Button variant="minimal" onClick={selecting.clear}>
              {t('selection.clear')}
            </Button>
            <div className="mp-selection-actions" role="group" aria-label={t('selection.actions')}>
              {STAFF_ACTIONS.map((candidate) => (
                <Button key={candidate} size="small" disabled={!usable(candidate)} onClick={() => setAction(candidate)}>
                  {t(`actions.${candidate}`)}
                </Button>
              ))}
            </div>
            {notes.map((note) => (
              <p key={note} className="mp-muted-text mp-selection-note">
                {note}
              </p>
            ))}
          </>
        ) : (
          <span className="mp-muted-text">{t('selection.hint')}</span>
        )}
      </div>

      {query.isError && (
        <p role="alert" className="mp-field-error">
          {failureMessage(query.error)}
        </p>
      )}
      <div className={`mp-table-wrap ${query.isFetching && query.isPlaceholderData ? 'mp-table-stale' : ''}`} aria-busy={query.isFetching}>
        <HTMLTable className="mp-list-table" striped aria-describedby={ids.caption}>
          <caption id={ids.caption} className="mp-visually-hidden">
            {t(`titles.${scope}`)}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="mp-check-cell">
                <Checkbox
                  className="mp-check-cellbox"
                  aria-label={t('selection.page')}
                  checked={pageSelected}
                  indeterminate={!pageSelected && somePageSelected}
                  disabled={users.length === 0}
                  onChange={() => selecting.setPage(users, !pageSelected)}
                />
              </th>
              <ColumnHeader column="name" view={view} onSort={(sort) => show({ ...view, sort, page: 1 }, true)} />
              <ColumnHeader column="role" view={view} onSort={(sort) => show({ ...view, sort, page: 1 }, true)} />
              <ColumnHeader column="status" view={view} onSort={(sort) => show({ ...view, sort, page: 1 }, true)} />
              <th scope="col">{t('columns.inviteStatus')}</th>
              <th scope="col">{t('columns.lastSignIn')}</th>
            </tr>
          </thead>
          <tbody>
            {query.isPending && <SkeletonRows columns={COLUMNS} />}
            {users.map((user) => (
              <StaffRow key={user.id} user={user} selfId={profile.id} selected={selecting.isSelected(user.id)} onToggle={() => selecting.toggle(user)} />
            ))}
            {query.isSuccess && users.length === 0 && (
              <tr>
                <td colSpan={COLUMNS} className="mp-table-empty">
                  {isFiltered(view) ? t('noMatch') : t(`empty.${scope}`)}
                </td>
              </tr>
            )}
          </tbody>
        </HTMLTable>
      </div>
      {meta && meta.total > 0 && (
        <RangePaging namespace="staff" meta={meta} onPage={(page) => show({ ...view, page }, false)}>
          <div className="mp-page-size">
            <label htmlFor={ids.perPage}>{t('perPage')}</label>
            <Select id={ids.perPage} value={view.perPage} onChange={(event) => show({ ...view, perPage: Number(event.currentTarget.value), page: 1 }, true)}>
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </Select>
          </div>
        </RangePaging>
      )}
      {action && (
        <BulkActionDialog
          action={action}
          scope={scope}
          view={view}
          selection={selection}
          selfId={profile.id}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            selecting.clear();
          }}
        />
      )}
    </>
  );
}
