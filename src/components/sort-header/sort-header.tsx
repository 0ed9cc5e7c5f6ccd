import { Icon } from '@blueprintjs/core';
import './icons';

export type SortState = 'ascending' | 'descending' | 'none';

type SortHeaderProps = {
  label: string;
  state: SortState;
  onSort: () => void;
  className?: string;
};

/** A column header that sorts: a button inside the <th>, whose aria-sort tells the current order. */
export function SortHeader({ label, state, onSort, className }: SortHeaderProps) {
  return (
    <th scope="col" aria-sort={state} className={className}>
      <button type="button" className="mp-sort-button" onClick={onSort}>
        {label}
        <Icon
          icon={state === 'ascending' ? 'chevron-up' : state === 'descending' ? 'chevron-down' : 'double-caret-vertical'}
          className="mp-sort-icon"
          aria-hidden
        />
      </button>
    </th>
  );
}
