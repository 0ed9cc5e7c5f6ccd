import { Button, FileInput, FormGroup, Icon, Spinner } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetUserAvatarQueryKey, useGetUserAvatar, useUpdateProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { SubmitButton } from '@/components/submit-button';
import { AVATAR_ACCEPT, avatarProblem, avatarRefusal, type AvatarProblem } from '@/lib/avatar-file';
import { formatNumber } from '@/lib/format';
import { useNotifyFailure, useProfileSaved } from './profile-save';
import { useObjectUrl } from '@/lib/use-object-url';

/** The saved picture, read through the API (it needs the bearer token) and kept out of the persisted cache. */
function CurrentAvatar({ profile }: { profile: Profile }) {
  const { t } = useTranslation(['profile', 'common']);
  const hasAvatar = profile.avatar != null;
  const avatar = useGetUserAvatar(profile.id, { query: { enabled: hasAvatar, meta: { persist: false } } });
  const url = useObjectUrl(hasAvatar && avatar.data instanceof Blob ? avatar.data : undefined);
  if (url) return <img src={url} alt={t('avatar.current')} className="mp-avatar" />;
  if (hasAvatar && avatar.isPending) return <Spinner size={24} aria-label={t('common:loading')} />;
  return (
    <>
      <span className="mp-avatar mp-avatar-empty">
        {/* The bundled 16 px icon, drawn large by CSS: at size 40 Blueprint would fetch every 20 px icon. */}
        <Icon icon="user" aria-hidden />
      </span>
      <p className="mp-muted">{t('avatar.none')}</p>
    </>
  );
}

/**
 * Seed-spec §5: a PNG, JPG or JPEG of at most 3 MB, else a message that says which of the two it is not. The file is checked
 * here before anything is sent, then previewed, then saved; the saved picture can also be removed.
 */
export function AvatarSection({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('profile');
  const queryClient = useQueryClient();
  const profileSaved = useProfileSaved();
  const notifyFailure = useNotifyFailure();
  const inputId = useId();
  const helpId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File>();
  const [problem, setProblem] = useState<AvatarProblem>();
  const invalid = problem !== undefined;
  // Which limit the file broke: "Too large: 4.2 MB, at most 3 MB" or "PNG, JPG or JPEG only".
  const problemText = (refused: AvatarProblem) =>
    refused.kind === 'format'
      ? t('avatar.wrongFormat')
      : refused.megabytes === undefined
        ? t('avatar.tooLargeForServer')
        : t('avatar.tooLarge', { size: formatNumber(refused.megabytes, i18n.language, 1) });
  const previewUrl = useObjectUrl(chosen);

  const discard = () => {
    setChosen(undefined);
    if (inputRef.current) inputRef.current.value = '';
  };

  const refuse = (refused: AvatarProblem) => {
    discard();
    setProblem(refused);
  };

  const update = useUpdateProfile({
    mutation: {
      onSuccess: async (answer) => {
        profileSaved(answer);
        discard();
        await queryClient.invalidateQueries({ queryKey: getGetUserAvatarQueryKey(profile.id) });
      },
      onError: (error) => {
        const refused = avatarRefusal(error);
        if (refused) refuse(refused);
        else notifyFailure(error);
      },
    },
  });

  const choose = async (file: File | undefined) => {
    setProblem(undefined);
    if (!file) return discard();
    const refused = await avatarProblem(file);
    if (refused) refuse(refused);
    else setChosen(file);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) update.mutate({ data: { avatar: chosen } });
      }}
    >
      <div className="mp-avatar-frame">
        {previewUrl ? (
          <img src={previewUrl} alt={t('avatar.preview')} className="mp-avatar" />
        ) : (
          <CurrentAvatar profile={profile} />
        )}
      </div>
      <FormGroup
        label={t('avatar.choose')}
        labelFor={inputId}
        intent={invalid ? 'danger' : 'none'}
        helperText={<span id={helpId}>{problem ? problemText(problem) : t('avatar.rules')}</span>}
      >
        {/* Blueprint's picker, in the page's language (the browser's own would speak the browser's). */}
        <FileInput
          className="mp-file-input"
          fill
          size="large"
          text={chosen?.name ?? t('avatar.chooseFile')}
          buttonText={t('avatar.browse')}
          hasSelection={chosen !== undefined}
          inputProps={{
            ref: inputRef,
            id: inputId,
            accept: AVATAR_ACCEPT,
            'aria-invalid': invalid || undefined,
            'aria-describedby': helpId,
          }}
          onInputChange={(event) => void choose(event.currentTarget.files?.[0])}
        />
      </FormGroup>
      <div className="mp-button-row">
        {chosen && (
          <>
            <SubmitButton label={t('avatar.save')} pending={update.isPending} fill={false} />
            <Button size="large" onClick={discard} disabled={update.isPending}>
              {t('avatar.discard')}
            </Button>
          </>
        )}
        {!chosen && profile.avatar != null && (
          <Button
            size="large"
            icon="trash"
            onClick={() => update.mutate({ data: { removeAvatar: '1' } })}
            disabled={update.isPending}
          >
            {t('avatar.remove')}
          </Button>
        )}
      </div>
    </form>
  );
}
