import { Button, Callout, Card, Checkbox, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useForm, type UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useSignIn } from '@generated/hooks/auth/auth';
import { getGetProfileQueryOptions, useUpdateProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import type { SecondFactorChallengeSecondFactor } from '@generated/model/secondFactorChallengeSecondFactor';
import type { SignedIn } from '@generated/model/signedIn';
import { paths } from '@/config/paths';
import { LanguageSwitch } from '@/components/language-switch';
import { LegalLinks } from '@/components/legal-links';
import { useNotify } from '@/components/notifications';
import { useHydrated } from '@/components/use-hydrated';
import { PageSpinner } from '@/components/page-spinner';
import { useValidationMessage } from '@/components/use-validation-message';
import { ApiError } from '@/lib/api-client';
import { getToken, readStorage, removeStorage, writeStorage } from '@/lib/auth-storage';
import { startSession } from '@/lib/session';
import { toUiLanguage, type UiLanguage } from '@/lib/i18n';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import type { SignInFormInput, SignInFormValues } from './sign-in-schema';
import { MAIN_ID } from '@/components/skip-link';

// The second step loads only for accounts that have one: the sign-in page of everyone else stays as light.
const SecondFactorStep = lazy(() => import('./second-factor-step').then((module) => ({ default: module.SecondFactorStep })));

/**
 * A browser the user let skip the second step (where the clinic allows it) keeps its token per account: the
 * server decides whether it still counts.
 */
const rememberedDeviceKey = (email: string) => `rememberedDevice:${email.trim().toLowerCase()}`;
const rememberDevice = (email: string, token: string) => writeStorage('localStorage', rememberedDeviceKey(email), token);
function rememberedDeviceOf(email: string): { rememberedDevice?: string } {
  const token = readStorage('localStorage', rememberedDeviceKey(email));
  return token ? { rememberedDevice: token } : {};
}

const resolver = deferredResolver<SignInFormInput, SignInFormValues>(async () => {
  const [{ zodResolver }, { signInFormSchema, signInErrorMap }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('./sign-in-schema'),
  ]);
  return zodResolver(signInFormSchema, { error: signInErrorMap });
});

/** A 422 may carry localised messages per field: show them under the fields. */
function showFieldErrors(error: ApiError, setError: UseFormSetError<SignInFormInput>): void {
  for (const field of ['email', 'password'] as const) {
    const message = error.errors?.[field]?.[0];
    if (message) setError(field, { type: 'server', message });
  }
}

/**
 * A language chosen on this page (kept for the tab, so a reload keeps it too) wins over the one saved in
 * the profile, and is saved to it: the profile's language only applies when the user made no choice here.
 */
const CHOSEN_LANGUAGE_KEY = 'signInLanguage';

function useChosenLanguage(): [UiLanguage | undefined, (language: UiLanguage) => void, () => void] {
  const [chosen, setChosen] = useState(() => toUiLanguage(readStorage('sessionStorage', CHOSEN_LANGUAGE_KEY)));
  const choose = (language: UiLanguage) => {
    writeStorage('sessionStorage', CHOSEN_LANGUAGE_KEY, language);
    setChosen(language);
  };
  return [chosen, choose, () => removeStorage('sessionStorage', CHOSEN_LANGUAGE_KEY)];
}

function useProfileLanguage(): (profile: Profile, chosen: UiLanguage | undefined) => Profile {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const saveLanguage = useUpdateProfile({
    mutation: {
      onSuccess: (answer) => queryClient.setQueryData(getGetProfileQueryOptions().queryKey, answer),
      onError: () => notify({ intent: 'danger', message: t('languageSaveFailed') }),
    },
  });
  return (profile, chosen) => {
    if (!chosen || chosen === profile.lang) return profile;
    saveLanguage.mutate({ data: { lang: chosen } });
    return { ...profile, lang: chosen };
  };
}

/**
 * A signed-in user has nothing to do here: once their profile loads, on to / (which sends on to the home
 * of their role). Without a token, or when the profile cannot be read (a 401 clears the token), the form.
 * Asked once, on arrival; a sign-in made on this page navigates by itself.
 */
function useAlreadySignedIn(): 'checking' | 'yes' | 'no' {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'checking' | 'yes' | 'no'>(() => (getToken() === null ? 'no' : 'checking'));
  useEffect(() => {
    if (state !== 'checking') return;
    // fetchQuery rather than a query hook: a 401 empties the cache, and an observer of the removed query
    // would never hear how it ended.
    queryClient.fetchQuery({ ...getGetProfileQueryOptions(), retry: false }).then(
      () => setState('yes'),
      () => setState('no'),
    );
  }, [queryClient, state]);
  return state;
}

export function SignInPage() {
  const { t, i18n } = useTranslation(['auth', 'common']);
  const [searchParams] = useSearchParams();
  const signedOutIdle = searchParams.get('signedOut') === 'idle';
  const alreadySignedIn = useAlreadySignedIn();
  const profileLanguage = useProfileLanguage();
  const [chosenLanguage, setChosenLanguage, forgetChosenLanguage] = useChosenLanguage();
  const validationMessage = useValidationMessage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = { email: useId(), password: useId(), emailError: useId(), passwordError: useId() };
  const hydrated = useHydrated();

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    getValues,
    formState: { errors },
  } = useForm<SignInFormInput, unknown, SignInFormValues>({
    resolver,
    // No default for the text fields: the form may arrive as HTML before this code (src/app/prerender.tsx), and
    // react-hook-form takes what was typed meanwhile from the fields instead of emptying them.
    defaultValues: { remember: true },
  });
  useResolverPreload(resolver);

  const [secondFactor, setSecondFactor] = useState<{ challenge: SecondFactorChallengeSecondFactor; email: string; remember: boolean } | null>(null);

  const finishSignIn = ({ token, profile, rememberedDevice }: SignedIn, email: string, remember: boolean) => {
    // Nothing cached for a previous user may leak into this session.
    startSession(queryClient, token, remember);
    if (rememberedDevice) rememberDevice(email, rememberedDevice.token);
    const signedIn = profileLanguage(profile, chosenLanguage);
    forgetChosenLanguage();
    queryClient.setQueryData(getGetProfileQueryOptions().queryKey, { status: 'Success', data: signedIn });
    const language = toUiLanguage(signedIn.lang);
    if (language) void i18n.changeLanguage(language);
    void navigate(paths.home.getHref(), { replace: true });
  };

  const signIn = useSignIn({
    mutation: {
      onSuccess: ({ data }, { data: { email, remember } }) => {
        if ('secondFactor' in data) setSecondFactor({ challenge: data.secondFactor, email, remember: remember ?? true });
        else finishSignIn(data, email, remember ?? true);
      },
      onError: (error) => {
        if (error instanceof ApiError) showFieldErrors(error, setError);
      },
    },
  });

  // The form is what this page is for: its first field takes the focus (also after a route change), unless the
  // user is in the form or has typed in it already (it arrived as HTML before this code: a focus moved then sent
  // the rest of what was typed, a password too, into the e-mail field).
  const showsForm = alreadySignedIn === 'no' && secondFactor === null;
  useEffect(() => {
    const typed = getValues('email') || getValues('password');
    if (showsForm && !typed && !document.activeElement?.closest('form')) setFocus('email');
  }, [showsForm, setFocus, getValues]);

  const failure = (() => {
    const error = signIn.error;
    if (!error) return undefined;
    if (error.status === 401) return t('signIn.failed');
    if (!error.status) return t('common:request.unreachable');
    return error.message;
  })();

  const { ref: emailRef, ...emailField } = register('email');
  const { ref: passwordRef, ...passwordField } = register('password');
  const { ref: rememberRef, ...rememberField } = register('remember');
  const emailError = validationMessage(errors.email?.message);
  const passwordError = validationMessage(errors.password?.message);

  if (alreadySignedIn === 'yes') return <Navigate to={paths.home.getHref()} replace />;
  if (alreadySignedIn === 'checking') return <PageSpinner />;

  return (
    <main className="mp-page-center mp-auth-page" id={MAIN_ID} tabIndex={-1}>
      <Card className="mp-auth-card" elevation={2}>
        <p className="mp-brand">{t('common:appName')}</p>
        {secondFactor ? (
          <Suspense fallback={<Spinner aria-label={t('common:loading')} />}>
            <SecondFactorStep
              challenge={secondFactor.challenge}
              onSignedIn={(signedIn) => finishSignIn(signedIn, secondFactor.email, secondFactor.remember)}
              onRestart={() => {
                setSecondFactor(null);
                signIn.reset();
              }}
            />
          </Suspense>
        ) : (
          <>
        <h1 className="mp-page-title">{t('signIn.title')}</h1>
        <p className="mp-muted">{t('signIn.intro')}</p>

        {signedOutIdle && !failure && (
          <Callout intent="warning" icon="time" role="status" className="mp-form-alert" title={t('signIn.idleTitle')}>
            {t('signIn.idleSignedOut')}
          </Callout>
        )}
        {failure && (
          <Callout intent="danger" role="alert" className="mp-form-alert">
            {failure}
          </Callout>
        )}

        <form noValidate onSubmit={handleSubmit((data) => signIn.mutate({ data: { ...data, ...rememberedDeviceOf(data.email) } }))}>
          <FormGroup
            label={t('signIn.email')}
            labelFor={ids.email}
            intent={emailError ? 'danger' : 'none'}
            helperText={emailError && <span id={ids.emailError}>{emailError}</span>}
          >
            <InputGroup
              {...emailField}
              inputRef={emailRef}
              id={ids.email}
              type="email"
              autoComplete="username"
              size="large"
              intent={emailError ? 'danger' : 'none'}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? ids.emailError : undefined}
            />
          </FormGroup>

          <FormGroup
            label={t('signIn.password')}
            labelFor={ids.password}
            intent={passwordError ? 'danger' : 'none'}
            helperText={passwordError && <span id={ids.passwordError}>{passwordError}</span>}
          >
            <InputGroup
              {...passwordField}
              inputRef={passwordRef}
              id={ids.password}
              type="password"
              autoComplete="current-password"
              size="large"
              intent={passwordError ? 'danger' : 'none'}
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? ids.passwordError : undefined}
            />
          </FormGroup>

          <div className="mp-form-row">
            <Checkbox {...rememberField} inputRef={rememberRef} defaultChecked label={t('signIn.remember')} />
            <Link to={paths.auth.resetPassword.getHref()}>{t('signIn.forgotPassword')}</Link>
          </div>

          {/* Blueprint's own `loading` spinner is labelled in English only. */}
          <Button
            type="submit"
            intent="primary"
            size="large"
            fill
            // Not before React has taken over the form, if it arrived as HTML (src/components/use-hydrated.ts).
            disabled={signIn.isPending || !hydrated}
            aria-busy={signIn.isPending}
            icon={signIn.isPending ? <Spinner size={16} aria-label={t('common:loading')} /> : undefined}
          >
            {t('signIn.submit')}
          </Button>
        </form>
          </>
        )}

        <div className="mp-auth-footer">
          <LanguageSwitch onChoose={setChosenLanguage} />
        </div>
        <LegalLinks />
      </Card>
    </main>
  );
}
