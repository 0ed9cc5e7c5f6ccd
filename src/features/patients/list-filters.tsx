import { Button, Classes, FormGroup, InputGroup } from '@blueprintjs/core';
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { birthdayRangeProblem, PLAN_STATUS_FILTERS, type ListView } from './list-view';
import { useLeaving } from '@/components/list-table/use-leaving';
import { Select } from '@/components/select';

/** Typing pauses this long before the list asks the server (one request per word, not per key). */
const SEARCH_DELAY_MS = 300;

type ListFiltersProps = {
  view: ListView;
  onChange: (change: Partial<Omit<ListView, 'page' | 'more'>>) => void;
  searchRef: RefObject<HTMLInputElement | null>;
  /** ArrowDown in the search, after what was typed (`search`) is sent: the list's first row is to take the focus. */
  onArrowDown: (search: string) => void;
};

/**
 * The search as typed, sent on a pause unless a link was followed meanwhile, or at once by the third value (ArrowDown
 * to the rows does not wait for the pause); it follows the URL when that changes (back button, a link).
 */
function useSearchInput(search: string, onSearch: (search: string) => void) {
  const [text, setText] = useState(search);
  const sent = useRef(search);
  const send = useRef(onSearch);
  const leaving = useLeaving();
  useEffect(() => {
    send.current = onSearch;
  });
  useEffect(() => {
    if (search !== sent.current) {
      sent.current = search;
      setText(search);
    }
  }, [search]);
  const sendNow = useCallback(() => {
    if (text === sent.current) return;
    sent.current = text;
    send.current(text);
  }, [text]);
  useEffect(() => {
    if (text === sent.current) return undefined;
    const typedOn = window.location.pathname;
    const timer = window.setTimeout(() => {
      if (!leaving(typedOn)) sendNow();
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, leaving, sendNow]);
  return [text, setText, sendNow] as const;
}

/**
 * A date as picked, which follows the URL when that changes (back button, "Clear filters"): the field keeps
 * the picked date while the URL catches up instead of flicking back to the old one.
 */
function useDateInput(value: string) {
  const [picked, setPicked] = useState(value);
  const [followed, setFollowed] = useState(value);
  if (value !== followed) {
    setFollowed(value);
    setPicked(value);
  }
  return [picked, setPicked] as const;
}

export function ListFilters({ view, onChange, searchRef, onArrowDown }: ListFiltersProps) {
  const { t } = useTranslation(['patientList', 'patients']);
  const ids = { search: useId(), from: useId(), to: useId(), status: useId(), rangeError: useId() };
  const [search, setSearch, sendSearch] = useSearchInput(view.search, (text) => onChange({ search: text }));
  const [birthdayFrom, setBirthdayFrom] = useDateInput(view.birthdayFrom);
  const [birthdayTo, setBirthdayTo] = useDateInput(view.birthdayTo);
  const rangeProblem = birthdayRangeProblem(view);
  const filtered = Boolean(view.search || view.birthdayFrom || view.birthdayTo || view.planStatus);

  return (
    <form className="mp-list-filters" role="search" aria-label={t('filters.label')} onSubmit={(event) => event.preventDefault()}>
      <FormGroup label={t('filters.search')} labelFor={ids.search} className="mp-filter-search">
        <InputGroup
          id={ids.search}
          inputRef={searchRef}
          type="search"
          leftIcon="search"
          value={search}
          maxLength={100}
          placeholder={t('filters.searchPlaceholder')}
          onValueChange={setSearch}
          onKeyDown={(event) => {
            if (event.key !== 'ArrowDown') return;
            event.preventDefault();
            sendSearch();
            onArrowDown(search);
          }}
          aria-keyshortcuts="/"
        />
      </FormGroup>
      <FormGroup label={t('filters.birthdayFrom')} labelFor={ids.from} intent={rangeProblem ? 'danger' : 'none'}>
        <input
          id={ids.from}
          type="date"
          className={`${Classes.INPUT} mp-date-input`}
          value={birthdayFrom}
          onChange={(event) => {
            setBirthdayFrom(event.currentTarget.value);
            onChange({ birthdayFrom: event.currentTarget.value });
          }}
          aria-invalid={rangeProblem ? true : undefined}
          aria-describedby={rangeProblem ? ids.rangeError : undefined}
        />
      </FormGroup>
      <FormGroup label={t('filters.birthdayTo')} labelFor={ids.to} intent={rangeProblem ? 'danger' : 'none'}>
        <input
          id={ids.to}
          type="date"
          className={`${Classes.INPUT} mp-date-input`}
          value={birthdayTo}
          onChange={(event) => {
            setBirthdayTo(event.currentTarget.value);
            onChange({ birthdayTo: event.currentTarget.value });
          }}
          aria-invalid={rangeProblem ? true : undefined}
          aria-describedby={rangeProblem ? ids.rangeError : undefined}
        />
      </FormGroup>
      <FormGroup label={t('patients:field.planStatus')} labelFor={ids.status}>
        <Select
          id={ids.status}
          value={view.planStatus}
          onChange={(event) => onChange({ planStatus: event.currentTarget.value as ListView['planStatus'] })}
        >
          <option value="">{t('filters.anyStatus')}</option>
          {PLAN_STATUS_FILTERS.map((status) => (
            <option key={status} value={status}>
              {t(`patients:planStatus.${status}`)}
            </option>
          ))}
        </Select>
      </FormGroup>
      {filtered && (
        <Button
          variant="minimal"
          className="mp-filter-clear"
          onClick={() => {
            setSearch('');
            onChange({ search: '', birthdayFrom: '', birthdayTo: '', planStatus: '' });
          }}
        >
          {t('filters.clear')}
        </Button>
      )}
      {rangeProblem && (
        <p id={ids.rangeError} role="alert" className="mp-filter-error">
          {t('filters.rangeReversed')}
        </p>
      )}
    </form>
  );
}
