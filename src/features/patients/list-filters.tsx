import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { birthdayRangeProblem, PLAN_STATUS_FILTERS, type ListView } from './list-view';
import { DateInput, useDateText } from '@/components/date-input';
import { useLeaving } from '@/components/list-table/use-leaving';
import { Select } from '@/components/select';
import { EARLIEST_BIRTHDAY } from '@/lib/date-text';
import { localToday } from '@/lib/format';

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

export function ListFilters({ view, onChange, searchRef, onArrowDown }: ListFiltersProps) {
  const { t } = useTranslation(['patientList', 'patients']);
  const ids = { search: useId(), from: useId(), to: useId(), status: useId(), rangeError: useId(), fromError: useId(), toError: useId() };
  const [search, setSearch, sendSearch] = useSearchInput(view.search, (text) => onChange({ search: text }));
  // A birthday is taken once it is a date from 1900 to today, at once (as the calendar picker did); what is
  // refused is marked and never sent: the list stays as it was.
  const birthday = (name: 'birthdayFrom' | 'birthdayTo') => ({
    value: view[name],
    onChange: (value: string, valid: boolean) => {
      if (valid) onChange({ [name]: value });
    },
    min: EARLIEST_BIRTHDAY,
    max: localToday(),
  });
  const from = useDateText(birthday('birthdayFrom'));
  const to = useDateText(birthday('birthdayTo'));
  const rangeProblem = birthdayRangeProblem(view);
  const filtered = Boolean(view.search || view.birthdayFrom || view.birthdayTo || view.planStatus || from.problem || to.problem);

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
      <FormGroup label={t('filters.birthdayFrom')} labelFor={ids.from} intent={from.problem || rangeProblem ? 'danger' : 'none'}>
        <DateInput
          date={from}
          id={ids.from}
          invalid={Boolean(from.problem || rangeProblem)}
          describedBy={from.problem ? ids.fromError : rangeProblem && ids.rangeError}
        />
      </FormGroup>
      <FormGroup label={t('filters.birthdayTo')} labelFor={ids.to} intent={to.problem || rangeProblem ? 'danger' : 'none'}>
        <DateInput
          date={to}
          id={ids.to}
          invalid={Boolean(to.problem || rangeProblem)}
          describedBy={to.problem ? ids.toError : rangeProblem && ids.rangeError}
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
            from.clear();
            to.clear();
            onChange({ search: '', birthdayFrom: '', birthdayTo: '', planStatus: '' });
          }}
        >
          {t('filters.clear')}
        </Button>
      )}
      {from.problem && (
        <p id={ids.fromError} role="alert" className="mp-filter-error">
          {`${t('filters.birthdayFrom')}: ${from.problem}`}
        </p>
      )}
      {to.problem && (
        <p id={ids.toError} role="alert" className="mp-filter-error">
          {`${t('filters.birthdayTo')}: ${to.problem}`}
        </p>
      )}
      {rangeProblem && (
        <p id={ids.rangeError} role="alert" className="mp-filter-error">
          {t('filters.rangeReversed')}
        </p>
      )}
    </form>
  );
}
