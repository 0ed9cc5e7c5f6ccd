import { useState } from 'react';
import type { User } from '@generated/model/user';

/**
 * The users chosen for a bulk action: some picked one by one (on any page; they stay chosen while paging), or
 * every user the list's filters match ("select all N matching"), resolved only when an action is chosen.
 */
export type Selection = { kind: 'some'; users: ReadonlyMap<string, User> } | { kind: 'all'; total: number };

const NONE: Selection = { kind: 'some', users: new Map() };

export const selectedCount = (selection: Selection) => (selection.kind === 'all' ? selection.total : selection.users.size);

/**
 * `filterKey` names the list's filters: when they change, the selection starts empty again (what was chosen
 * under other filters is not what the list shows).
 */
export function useStaffSelection(filterKey: string) {
  const [state, setState] = useState<{ key: string; selection: Selection }>({ key: filterKey, selection: NONE });
  const selection = state.key === filterKey ? state.selection : NONE;
  const set = (next: Selection) => setState({ key: filterKey, selection: next });
  const picked = (): Map<string, User> => new Map(selection.kind === 'some' ? selection.users : []);

  return {
    selection,
    isSelected: (id: string) => selection.kind === 'all' || selection.users.has(id),
    toggle(user: User) {
      const users = picked();
      if (users.has(user.id)) users.delete(user.id);
      else users.set(user.id, user);
      set({ kind: 'some', users });
    },
    /** Chooses (or lets go of) every user on the page shown. */
    setPage(users: User[], on: boolean) {
      const next = picked();
      for (const user of users) {
        if (on) next.set(user.id, user);
        else next.delete(user.id);
      }
      set({ kind: 'some', users: next });
    },
    selectAll: (total: number) => set({ kind: 'all', total }),
    clear: () => set(NONE),
  };
}
