import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import type { ProfileResponse } from '@generated/model/profileResponse';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';

/**
 * After a saved change: the answer becomes the cached profile, so the navbar and this page show it at
 * once, and the server's confirmation ('Changes added successfully') is shown.
 */
export function useProfileSaved(): (answer: ProfileResponse) => void {
  const { t } = useTranslation('profile');
  const queryClient = useQueryClient();
  const notify = useNotify();
  return ({ status, message, data }) => {
    queryClient.setQueryData<ProfileResponse>(getGetProfileQueryKey(), { status, data });
    notify({ intent: 'success', message: message ?? t('general.saved') });
  };
}

/** A failure no field can show (server down, throttled, …): it stays on screen until closed. */
export function useNotifyFailure(): (error: unknown) => void {
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  return (error) => notify({ intent: 'danger', message: failureMessage(error), duration: 0 });
}
