import { Alert, Button, Callout, Card, FileInput, FormGroup, Icon, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useGetUserAvatar } from '@generated/hooks/profile/profile';
import {
  getGetUserQueryKey,
  getListUsersQueryKey,
  useCreateUser,
  useGetUser,
  useResendInvite,
  useUpdateUser,
} from '@generated/hooks/users/users';
import { useResetTwoFactor } from '@generated/hooks/two-factor/two-factor';
import { StaffRole } from '@generated/model/staffRole';
import type { User } from '@generated/model/user';
import type { UserResponse } from '@generated/model/userResponse';
import { createUserBodyFirstNameMax, createUserBodyLastNameMax, createUserBodyPhysicianNameMax } from '@generated/zod/users/users.zod';
import { FormAlert, showServerFieldErrors, TextField, useFailureMessage, useFailureText } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { useValidationMessage } from '@/components/use-validation-message';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { AVATAR_ACCEPT, avatarProblem, avatarRefusal, type AvatarProblem } from '@/lib/avatar-file';
import { formatNumber } from '@/lib/format';
import { formatDateTime } from '@/lib/format';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { useObjectUrl } from '@/lib/use-object-url';
import { isUuid } from '@/lib/uuid';
import { ItAdminGrantDialog } from './it-admin-grant-dialog';
import { InviteStatusTag, UserStatusTag } from './user-status';
import {
  EMPTY_USER,
  isNewAddress,
  USER_FORM_FIELDS,
  userBodyOf,
  userFormErrorMap,
  userFormOf,
  userFormSchema,
  type AvatarChange,
  type UserFormInput,
  type UserFormValues,
} from './user-form-schema';
import './staff.css';
import './icons';

const resolver = zodResolver(userFormSchema, { error: userFormErrorMap });

/** The list a user belongs on: IT admins on theirs, everyone else with the clinical staff. */
const listOf = (role: string) => (role === StaffRole.clinic_it_admins ? paths.admin.itClinicAdmins.getHref() : paths.admin.physicians.getHref());

/** Users who have not accepted their invite: a new address means a new invite. */
const awaitsInvite = (user: User) => user.status === 'pending' || user.status === 'invite_expired';

/** Which limit a refused picture broke: "Too large: 4.2 MB, at most 3 MB" or "PNG, JPG or JPEG only". */
function useAvatarProblemText(): (problem: AvatarProblem) => string {
  const { t, i18n } = useTranslation('staff');
  return (problem) =>
    problem.kind === 'format'
      ? t('form.avatarWrongFormat')
      : problem.megabytes === undefined
        ? t('form.avatarTooLargeForServer')
        : t('form.avatarTooLarge', { size: formatNumber(problem.megabytes, i18n.language, 1) });
}

/** The picture: the saved one (read through the API), the chosen one, or none. */
function AvatarField({ user, change, onChange }: { user: User | undefined; change: AvatarChange; onChange: (change: AvatarChange) => void }) {
  const { t } = useTranslation('staff');
  const inputId = useId();
  const helpId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const problemText = useAvatarProblemText();
  const [problem, setProblem] = useState<AvatarProblem>();
  const invalid = problem !== undefined;
  const hasSaved = user?.avatar != null && change.kind !== 'remove';
  const saved = useGetUserAvatar(user?.id ?? '', { query: { enabled: !!user && user.avatar != null, meta: { persist: false } } });
  const savedUrl = useObjectUrl(hasSaved && saved.data instanceof Blob ? saved.data : undefined);
  const chosenUrl = useObjectUrl(change.kind === 'replace' ? change.file : undefined);
  const url = chosenUrl ?? savedUrl;

  const choose = async (file: File | undefined) => {
    setProblem(undefined);
    if (!file) return;
    const refused = await avatarProblem(file);
    if (!refused) return onChange({ kind: 'replace', file });
    if (inputRef.current) inputRef.current.value = '';
    setProblem(refused);
  };

  return (
    <FormGroup
      label={t('form.avatar')}
      labelFor={inputId}
      intent={invalid ? 'danger' : 'none'}
      helperText={<span id={helpId}>{problem ? problemText(problem) : t('form.avatarRules')}</span>}
    >
      <div className="mp-user-avatar-row">
        {url ? (
          <img src={url} alt={t(chosenUrl ? 'form.avatarChosen' : 'form.avatarSaved')} className="mp-user-form-avatar" />
        ) : hasSaved && saved.isPending ? (
          <Spinner size={24} />
        ) : (
          <span className="mp-user-form-avatar mp-user-form-avatar-empty">
            <Icon icon="user" aria-hidden />
          </span>
        )}
        <div className="mp-user-avatar-controls">
          <FileInput
            className="mp-file-input"
            fill
            size="large"
            text={change.kind === 'replace' ? change.file.name : t('form.avatarChoose')}
            buttonText={t('form.avatarBrowse')}
            hasSelection={change.kind === 'replace'}
            inputProps={{ ref: inputRef, id: inputId, accept: AVATAR_ACCEPT, 'aria-invalid': invalid || undefined, 'aria-describedby': helpId }}
            onInputChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
          {(change.kind === 'replace' || hasSaved) && (
            <Button
              variant="minimal"
              icon="trash"
              onClick={() => {
                if (inputRef.current) inputRef.current.value = '';
                onChange(change.kind === 'replace' ? { kind: 'keep' } : { kind: 'remove' });
              }}
            >
              {change.kind === 'replace' ? t('form.avatarDiscard') : t('form.avatarRemove')}
            </Button>
          )}
        </div>
      </div>
    </FormGroup>
  );
}

/** Where an edited user stands: status, invite, last sign-in; a new invite for those who have not accepted. */
function UserFacts({ user }: { user: User }) {
  const { t, i18n } = useTranslation('staff');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const resend = useResendInvite({
    mutation: {
      onSuccess: async (answer) => {
        queryClient.setQueryData(getGetUserQueryKey(user.id), answer);
        await queryClient.invalidateQueries({ queryKey: getListUsersQueryKey() });
        notify({ intent: 'success', message: answer.message ?? t('bulk.done.send_invite', { count: 1 }) });
      },
      onError: (error) => notify({ intent: 'danger', message: failureMessage(error) }),
    },
  });
  return (
    <Card className="mp-user-facts">
      <dl className="mp-definition-list">
        <dt>{t('columns.status')}</dt>
        <dd>
          <UserStatusTag status={user.status} />
        </dd>
        <dt>{t('columns.inviteStatus')}</dt>
        <dd>
          <InviteStatusTag user={user} />
        </dd>
        <dt>{t('columns.lastSignIn')}</dt>
        <dd>{user.lastSignInAt ? formatDateTime(user.lastSignInAt, i18n.language) : '—'}</dd>
        <dt>{t('form.twoFactor.label')}</dt>
        <dd>{user.twoFactorEnabled ? t('form.twoFactor.on') : t('form.twoFactor.off')}</dd>
      </dl>
      {user.twoFactorEnabled && <TwoFactorReset user={user} />}
      {awaitsInvite(user) && (
        <div className="mp-user-facts-actions">
          <Button icon="envelope" loading={resend.isPending} onClick={() => resend.mutate({ id: user.id })}>
            {t('form.resendInvite')}
          </Button>
          <p className="mp-muted-text">{t('form.resendNote')}</p>
        </div>
      )}
    </Card>
  );
}

/**
 * Resetting a user's second factor (a lost phone, no recovery codes left): confirmed first, since it signs the user
 * out and lets the next sign-in through on the password until a new app is set up. Not for the admin's own.
 */
function TwoFactorReset({ user }: { user: User }) {
  const { t } = useTranslation('staff');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const self = useSignedInProfile();
  const [confirming, setConfirming] = useState(false);
  const reset = useResetTwoFactor({
    mutation: {
      onSuccess: async (answer) => {
        setConfirming(false);
        notify({ intent: 'success', message: answer.message ?? t('form.twoFactor.done') });
        await queryClient.invalidateQueries({ queryKey: getGetUserQueryKey(user.id) });
        await queryClient.invalidateQueries({ queryKey: getListUsersQueryKey() });
      },
      onError: (error) => notify({ intent: 'danger', message: failureMessage(error) }),
    },
  });
  if (self.id === user.id) return null;
  return (
    <div className="mp-user-facts-actions">
      <Button onClick={() => setConfirming(true)}>{t('form.twoFactor.reset')}</Button>
      <Alert
        isOpen={confirming}
        intent="danger"
        confirmButtonText={t('form.twoFactor.reset')}
        cancelButtonText={t('cancel')}
        canEscapeKeyCancel
        loading={reset.isPending}
        onConfirm={() => reset.mutate({ id: user.id })}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('form.twoFactor.confirm', { name: `${user.firstName} ${user.lastName}` })}</p>
      </Alert>
    </div>
  );
}

/** The form of both modes; `user` is the edited one (undefined when adding). */
function UserFormBody({ user, defaultRole }: { user: User | undefined; defaultRole: StaffRole }) {
  const { t } = useTranslation('staff');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const validationMessage = useValidationMessage();
  const [avatar, setAvatar] = useState<AvatarChange>({ kind: 'keep' });
  const [avatarRefused, setAvatarRefused] = useState<AvatarProblem | null>(null);
  const problemText = useAvatarProblemText();
  // Values waiting for the confirmation of a new e-mail address, with the draft choice they were sent with (and the
  // password of a confirmed grant of IT admin rights).
  const [unconfirmed, setUnconfirmed] = useState<{ values: UserFormValues; draft: boolean | undefined; currentPassword?: string }>();
  // Values that grant IT admin rights, waiting for the acting admin's password (issue 27), and the server's word on it.
  const [grant, setGrant] = useState<{ values: UserFormValues; draft: boolean | undefined }>();
  const [grantError, setGrantError] = useState<string>();
  const failureMessage = useFailureMessage();
  const titleId = useId();
  const messageId = useId();
  const isDraft = !user || user.status === 'creation_in_progress';
  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<UserFormInput, unknown, UserFormValues>({ resolver, defaultValues: user ? userFormOf(user) : { ...EMPTY_USER, role: defaultRole } });
  const role = watch('role');

  const onSaved = async (answer: UserResponse) => {
    queryClient.setQueryData(getGetUserQueryKey(answer.data.id), answer);
    await queryClient.invalidateQueries({ queryKey: getListUsersQueryKey() });
    notify({ intent: 'success', message: answer.message ?? t('form.saved') });
    await navigate(listOf(answer.data.role));
  };
  const onError = (error: unknown) => {
    const passwordError = error instanceof ApiError ? error.errors?.currentPassword?.[0] : undefined;
    if (grant && (passwordError || (error instanceof ApiError && error.status === 429))) return setGrantError(passwordError ?? failureMessage(error));
    setGrant(undefined);
    const refused = error instanceof ApiError ? avatarRefusal(error) : null;
    if (refused) setAvatarRefused(refused);
    else showServerFieldErrors(error, setError, USER_FORM_FIELDS);
  };
  const create = useCreateUser({ mutation: { onSuccess: onSaved, onError } });
  const update = useUpdateUser({ mutation: { onSuccess: onSaved, onError } });
  const pending = create.isPending || update.isPending;
  const failure = useFailureText(avatarRefused || grant ? null : (create.error ?? update.error));

  const save = (values: UserFormValues, draft: boolean | undefined, currentPassword?: string) => {
    setAvatarRefused(null);
    const data = userBodyOf(values, avatar, draft);
    if (user) update.mutate({ id: user.id, data: currentPassword ? { ...data, currentPassword } : data });
    // The create form requires the four fields that editing leaves optional.
    else {
      const required = { firstName: values.firstName, lastName: values.lastName, email: values.email, role: values.role };
      create.mutate({ data: { ...data, ...required, ...(currentPassword && { currentPassword }) } });
    }
  };
  const asksForAddress = (values: UserFormValues) => user !== undefined && !isDraft && isNewAddress(values.email, user.email);
  const submit = (draft: boolean | undefined) =>
    handleSubmit((values) => {
      // Adding an IT admin, or making someone one, is confirmed with the acting admin's password (issue 27).
      if (values.role === StaffRole.clinic_it_admins && user?.role !== StaffRole.clinic_it_admins) {
        setGrantError(undefined);
        return setGrant({ values, draft });
      }
      return asksForAddress(values) ? setUnconfirmed({ values, draft }) : save(values, draft);
    });
  const confirmGrant = (currentPassword: string) => {
    if (!grant) return;
    setGrantError(undefined);
    if (asksForAddress(grant.values)) setUnconfirmed({ ...grant, currentPassword });
    else save(grant.values, grant.draft, currentPassword);
  };

  const field = (name: keyof UserFormInput) => ({ registration: register(name), error: validationMessage(errors[name]?.message) });

  return (
    <form noValidate onSubmit={(event) => void submit(isDraft ? false : undefined)(event)} className="mp-user-form">
      <Card className="mp-user-form-card">
        {failure && <FormAlert>{failure}</FormAlert>}
        <div className="mp-user-form-names">
          <TextField label={t('form.firstName')} {...field('firstName')} autoComplete="off" maxLength={createUserBodyFirstNameMax} />
          <TextField label={t('form.lastName')} {...field('lastName')} autoComplete="off" maxLength={createUserBodyLastNameMax} />
        </div>
        <TextField label={t('form.email')} {...field('email')} type="email" autoComplete="off" />
        <Controller
          control={control}
          name="role"
          render={({ field: roleField }) => (
            <RadioGroup
              label={t('form.role')}
              name={roleField.name}
              selectedValue={roleField.value}
              onChange={(event) => roleField.onChange(event.currentTarget.value)}
              className="mp-radio-group"
            >
              {Object.values(StaffRole).map((value) => (
                <Radio key={value} value={value} label={t(`form.roles.${value}`)} />
              ))}
            </RadioGroup>
          )}
        />
        {role === StaffRole.clinic_physicians && (
          <TextField label={t('form.physicianName')} {...field('physicianName')} autoComplete="off" maxLength={createUserBodyPhysicianNameMax}>
            <div className="bp6-form-helper-text">{t('form.physicianNameHelp')}</div>
          </TextField>
        )}
        <AvatarField
          user={user}
          change={avatar}
          onChange={(change) => {
            setAvatarRefused(null);
            setAvatar(change);
          }}
        />
        {avatarRefused && (
          <Callout intent="danger" role="alert" className="mp-dialog-callout">
            {problemText(avatarRefused)}
          </Callout>
        )}
        {isDraft && <p className="mp-muted-text">{t('form.draftNote')}</p>}
        <div className="mp-button-row">
          {isDraft ? (
            <>
              <Button type="submit" intent="primary" size="large" icon="envelope" loading={pending && !unconfirmed}>
                {t('form.confirmAndInvite')}
              </Button>
              <Button size="large" disabled={pending} onClick={() => void submit(true)()}>
                {t('form.saveDraft')}
              </Button>
            </>
          ) : (
            <Button type="submit" intent="primary" size="large" loading={pending}>
              {t('form.save')}
            </Button>
          )}
          <Link to={listOf(user?.role ?? defaultRole)} className="mp-user-form-cancel">
            {t('cancel')}
          </Link>
        </div>
      </Card>
      <Alert
        isOpen={unconfirmed !== undefined}
        intent="primary"
        confirmButtonText={t('form.emailChange.confirm')}
        cancelButtonText={t('cancel')}
        canEscapeKeyCancel
        onConfirm={() => {
          if (unconfirmed) save(unconfirmed.values, unconfirmed.draft, unconfirmed.currentPassword);
          setUnconfirmed(undefined);
        }}
        onCancel={() => {
          setUnconfirmed(undefined);
          setGrant(undefined);
        }}
        aria-labelledby={titleId}
        aria-describedby={messageId}
      >
        <h2 id={titleId} className="mp-card-title">
          {t('form.emailChange.title')}
        </h2>
        <p id={messageId}>
          {t('form.emailChange.message', { name: user ? `${user.firstName} ${user.lastName}` : '', email: unconfirmed?.values.email })}{' '}
          {user && awaitsInvite(user) ? t('form.emailChange.newInvite') : t('form.emailChange.confirmation', { name: user ? `${user.firstName} ${user.lastName}` : '' })}
        </p>
      </Alert>
      <ItAdminGrantDialog
        name={grant && !unconfirmed ? `${(user ?? grant.values).firstName} ${(user ?? grant.values).lastName}`.trim() : undefined}
        pending={pending}
        error={grantError}
        onConfirm={confirmGrant}
        onCancel={() => setGrant(undefined)}
      />
    </form>
  );
}

/** /admin/add and /admin/edit?userId=… (IT admins only): one form in two modes. */
export function UserFormPage({ mode }: { mode: 'add' | 'edit' }) {
  const { t } = useTranslation('staff');
  const failureMessage = useFailureMessage();
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const validId = mode === 'edit' && isUuid(userId);
  const query = useGetUser(userId, { query: { enabled: validId } });
  const defaultRole = (Object.values(StaffRole) as string[]).includes(params.get('role') ?? '') ? (params.get('role') as StaffRole) : StaffRole.clinic_physicians;
  const user = query.data?.data;
  const missing = mode === 'edit' && (!validId || (query.error instanceof ApiError && query.error.status === 404));

  return (
    <>
      <Link to={paths.admin.physicians.getHref()} className="mp-back-link">
        <Icon icon="chevron-left" aria-hidden /> {t('form.back')}
      </Link>
      <h1 className="mp-page-title">{mode === 'add' ? t('form.addTitle') : user ? t('form.editTitle', { name: `${user.firstName} ${user.lastName}` }) : t('form.editTitleLoading')}</h1>
      {mode === 'add' ? (
        <UserFormBody user={undefined} defaultRole={defaultRole} />
      ) : missing ? (
        <Callout intent="warning" role="alert">
          {t('form.notFound')}
        </Callout>
      ) : query.isError ? (
        <Callout intent="danger" role="alert">
          {failureMessage(query.error)}
        </Callout>
      ) : !user ? (
        <Spinner aria-label={t('form.loading')} />
      ) : (
        <div className="mp-user-form-layout">
          <UserFormBody key={user.id} user={user} defaultRole={defaultRole} />
          <UserFacts user={user} />
        </div>
      )}
    </>
  );
}
