import { Button, Checkbox, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetUserQueryOptions, useListUsers } from '@generated/hooks/users/users';
import type { User } from '@generated/model/user';

/** Results shown for a search; a longer list is narrowed by typing more. */
const RESULTS = 8;

const nameOf = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;

type UserPickerProps = {
  value: string[];
  onChange: (ids: string[]) => void;
  /** Id of the label that names the picker. */
  labelledBy: string;
  /** Already translated. */
  error?: string;
};

/**
 * Chooses several staff users (the settings apply to "all users or several"): the chosen ones as tags that can be
 * removed, and a search whose results are ticked on or off.
 */
export function UserPicker({ value, onChange, labelledBy, error }: UserPickerProps) {
  const { t } = useTranslation('securitySettings');
  const [search, setSearch] = useState('');
  const ids = { search: useId(), error: useId() };
  const results = useListUsers(
    { page: 1, perPage: RESULTS, ...(search.trim() && { search: search.trim() }) },
    // Not refetched when realtime announces staff changes: the list must not reshuffle while it is used.
    { query: { placeholderData: keepPreviousData, meta: { realtime: false } } },
  );
  // The chosen users' names, one read each (the settings name them by id).
  const chosen = useQueries({
    queries: value.map((id) => getGetUserQueryOptions(id)),
    combine: (answers) => answers.map((answer, index) => ({ id: value[index], user: answer.data?.data })),
  });
  const toggle = (id: string) => onChange(value.includes(id) ? value.filter((other) => other !== id) : [...value, id]);

  return (
    <div className="mp-user-picker" role="group" aria-labelledby={labelledBy} aria-describedby={error ? ids.error : undefined}>
      <div className="mp-user-picker-chosen" aria-live="polite">
        {chosen.length === 0 ? (
          <span className="mp-muted-text">{t('picker.none')}</span>
        ) : (
          chosen.map(({ id, user }) => (
            // Blueprint's own remove button would say "Remove tag" in English only: a button of ours.
            <span key={id} className="mp-user-picker-tag">
              <Tag round minimal>
                {user ? nameOf(user) : <Spinner size={12} />}
              </Tag>
              <Button
                variant="minimal"
                size="small"
                icon="cross"
                aria-label={t('picker.remove', { name: user ? nameOf(user) : '' })}
                onClick={() => toggle(id)}
              />
            </span>
          ))
        )}
      </div>
      {error && (
        <p id={ids.error} className="mp-field-error">
          {error}
        </p>
      )}
      <label htmlFor={ids.search} className="mp-user-picker-label">
        {t('picker.search')}
      </label>
      <InputGroup id={ids.search} type="search" leftIcon="search" value={search} onValueChange={setSearch} placeholder={t('picker.placeholder')} />
      <ul className="mp-user-picker-results">
        {(results.data?.data ?? []).map((user) => (
          <li key={user.id}>
            <Checkbox checked={value.includes(user.id)} onChange={() => toggle(user.id)}>
              {nameOf(user)} <span className="mp-muted-text">{user.email}</span>
            </Checkbox>
          </li>
        ))}
        {results.isSuccess && results.data.data.length === 0 && <li className="mp-muted-text">{t('picker.noMatch')}</li>}
      </ul>
      {results.data && results.data.meta.total > RESULTS && <p className="mp-muted-text">{t('picker.more', { count: results.data.meta.total - RESULTS })}</p>}
    </div>
  );
}
