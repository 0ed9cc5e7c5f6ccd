import { Icon } from '@blueprintjs/core';
import { memo } from 'react';
import { useGetUserAvatar } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { useObjectUrl } from '@/lib/use-object-url';

/**
 * The user's saved picture, small, for the header's user menu button; the user icon while there is none
 * or it loads. Decorative: the button's label names the user. Read through the API (it needs the bearer
 * token), kept out of the persisted cache, shared with the profile page (same query). Memoised: the menu
 * button re-renders while signing out, and a re-render after the logout emptied the cache would ask for
 * the picture again without a token.
 */
export const UserAvatar = memo(function UserAvatar({ profile }: { profile: Profile }) {
  const hasAvatar = profile.avatar != null;
  const avatar = useGetUserAvatar(profile.id, { query: { enabled: hasAvatar, meta: { persist: false } } });
  const url = useObjectUrl(hasAvatar && avatar.data instanceof Blob ? avatar.data : undefined);
  if (url) return <img src={url} alt="" className="mp-user-avatar" data-avatar="saved" />;
  return <Icon icon="user" aria-hidden />;
});
