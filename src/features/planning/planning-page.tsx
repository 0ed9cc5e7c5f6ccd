import { Button, Callout, Classes, DialogBody, HTMLTable, Tag } from '@blueprintjs/core';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useGetTreatment } from '@generated/hooks/treatments/treatments';
import type { Treatment } from '@generated/model/treatment';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { isUuid } from '@/lib/uuid';
import { BrightnessStep } from './brightness-step';
import { ChangeHistory } from './change-history';
import { ExclusionZonesStep } from './exclusion-zones-step';
import { MaculaGridStep } from './macula-grid-step';
import { PatientIdentity } from './patient-identity';
import { ProcessingStep } from './processing-step';
import { SignOffStep } from './sign-off-step';
import type { StepProps } from './step-props';
import { currentStep, openedStep, readOnlyReason, resetsWhenConfirming, WIZARD_STEPS, type WizardStep } from './wizard';
import './icons';
import './planning.css';
import { useRefetchInterval } from '@/lib/realtime';

// Step 5 with its laser panel (issue 29) loads when opened: the route's first visit stays within its bundle budget.
const ParameterSetStep = lazy(async () => ({ default: (await import('./parameter-set-step')).ParameterSetStep }));

/** While processing or packing runs, the session is read again this often without realtime (rarer with it). */
export const PLANNING_REFETCH_MS = 2000;

const HOTKEYS = ['help', 'undo', 'redo', 'tab', 'arrows', 'shiftArrows', 'space', 'zoom', 'fit', 'pan', 'redFree'] as const;

function HotkeysDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('planning');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('hotkeys.title')} className="mp-hotkeys-dialog">
      {/* No scroll box of its own: a box that scrolls needs to take the focus; the overlay scrolls instead. */}
      <DialogBody useOverflowScrollContainer={false}>
        <HTMLTable compact striped className="mp-hotkeys">
          <thead>
            <tr>
              <th scope="col">{t('hotkeys.keys')}</th>
              <th scope="col">{t('hotkeys.action')}</th>
            </tr>
          </thead>
          <tbody>
            {HOTKEYS.map((name) => (
              <tr key={name}>
                <td>
                  <kbd>{t(`hotkeys.list.${name}.keys`)}</kbd>
                </td>
                <td>{t(`hotkeys.list.${name}.action`)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </DialogBody>
    </Dialog>
  );
}

/** `?` opens the cheat sheet, unless typed into a field. */
function useHelpKey(setOpen: (open: boolean) => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '?' || (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);
}

function Stepper({ treatment, opened, current }: { treatment: Treatment; opened: WizardStep; current: WizardStep }) {
  const { t } = useTranslation('planning');
  return (
    <nav className="mp-stepper" aria-label={t('stepper')}>
      <ol>
        {WIZARD_STEPS.map((step) => {
          const state = step < current ? 'done' : step === current ? 'current' : 'ahead';
          const label = (
            <>
              <span className="mp-stepper-number" aria-hidden="true">
                {step}
              </span>
              <span className="mp-stepper-label">{t(`steps.${step}`)}</span>
            </>
          );
          const reachable = step <= current && (step > 0 || current === 0);
          return (
            <li key={step} className={`mp-stepper-step mp-stepper-${state} ${step === opened ? 'mp-stepper-opened' : ''}`}>
              {reachable ? (
                <Link to={paths.physician.planning.getHref(treatment.id, step)} aria-current={step === opened ? 'step' : undefined} aria-label={`${t(`steps.${step}`)} (${t(`stepState.${state}`)})`}>
                  {label}
                </Link>
              ) : (
                <span aria-disabled="true" aria-label={`${t(`steps.${step}`)} (${t(`stepState.${state}`)})`}>
                  {label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Page states without a session to plan: its own page, with the way back. */
function Problem({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  const { t } = useTranslation('planning');
  return (
    <div className="mp-card-problem">
      <h1 className="mp-page-title">{title}</h1>
      <p>{text}</p>
      {action ?? <Link to={paths.physician.list.getHref()}>{t('backToList')}</Link>}
    </div>
  );
}

/** Notices above a step: the lock with who reported what, or the signature that closed the plan. */
function Notices({ treatment }: { treatment: Treatment }) {
  const { t, i18n } = useTranslation('planning');
  const reason = readOnlyReason(treatment);
  return (
    <>
      {reason === 'locked' && (
        <Callout intent="warning" compact className="mp-step-callout" role="status" title={t('locked')}>
          {treatment.issueReport &&
            t('lockedBy', { name: treatment.issueReport.reportedBy.name, date: formatDateTime(treatment.issueReport.reportedAt, i18n.language), reason: treatment.issueReport.reason })}
        </Callout>
      )}
      {reason === 'signed' && treatment.plan.signOff && (
        <Callout intent="success" compact className="mp-step-callout">
          {t('signedReadOnly', { name: treatment.plan.signOff.by.name, date: formatDateTime(treatment.plan.signOff.at, i18n.language) })}
        </Callout>
      )}
    </>
  );
}

/** /physician/planning?treatmentId=…&step=…: the session planning wizard, steps 0–5 (see wizard.ts). */
export function PlanningPage() {
  const { t, i18n } = useTranslation(['planning', 'patients']);
  const profile = useSignedInProfile();
  const failureMessage = useFailureMessage();
  const [params] = useSearchParams();
  const treatmentId = params.get('treatmentId') ?? '';
  const validId = isUuid(treatmentId);
  const [help, setHelp] = useState(false);
  useHelpKey(setHelp);

  const refetchInterval = useRefetchInterval(PLANNING_REFETCH_MS);
  const query = useGetTreatment(treatmentId, {
    query: {
      enabled: validId,
      refetchInterval: (state) => {
        const treatment = state.state.data?.data;
        if (!treatment || treatment.error || treatment.locked) return false;
        return refetchInterval(currentStep(treatment) === 0 || (treatment.plan.stepIndex === 7 && !treatment.plan.parameterSet));
      },
    },
  });
  const treatment = query.data?.data;

  if (!validId || (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 403))) {
    return <Problem title={t('notFound.title')} text={t('notFound.text')} />;
  }
  if (query.isError) {
    return <Problem title={t('loadFailed')} text={failureMessage(query.error)} action={<Button onClick={() => void query.refetch()}>{t('retry')}</Button>} />;
  }
  if (!treatment) {
    return (
      <div className="mp-planning">
        <div className="mp-page-header">
          <div className="mp-page-heading">
            <h1 className={`mp-page-title ${Classes.SKELETON}`}>{t('loading')}</h1>
            <p className={`mp-patient-identity ${Classes.SKELETON}`} aria-hidden="true">
              {t('patient.loading')}
            </p>
          </div>
        </div>
        <div className={`mp-step-skeleton ${Classes.SKELETON}`} aria-hidden="true" />
      </div>
    );
  }

  const current = currentStep(treatment);
  const opened = openedStep(params.get('step'), current);
  // Step 0 only while processing runs or failed: afterwards the wizard moves on by itself.
  const step: WizardStep = opened === 0 && current !== 0 ? current : opened;
  const image = treatment.images.find((candidate) => candidate.role === 'fundus') ?? treatment.images[0];
  const reason = readOnlyReason(treatment);
  const stepProps: StepProps | null = image
    ? {
        treatment,
        image,
        editable: reason === null,
        resets: step < current ? resetsWhenConfirming(step, treatment.plan.stepIndex) : [],
        role: profile.role,
        children: <Notices treatment={treatment} />,
      }
    : null;
  // A new revision from the server starts the step's draft again from it. Sign-off does that itself, so that
  // it can say who changed the plan under the user and keep what may be kept (src/features/planning/sign-off-step.tsx).
  const key = step === 4 ? '4' : `${step}:${treatment.plan.revision}`;

  return (
    <div className="mp-planning">
      <nav className="mp-breadcrumb" aria-label={t('breadcrumb')}>
        <Link to={paths.physician.patientCard.getHref(treatment.patientId)}>{t('backToCard')}</Link>
      </nav>
      <div className="mp-page-header">
        <div className="mp-page-heading">
          <h1 className="mp-page-title">
            {t('title', { number: treatment.number, eye: t(`patients:eye.${treatment.eye}`), date: formatDate(treatment.date, i18n.language) })}
          </h1>
          <PatientIdentity treatment={treatment} />
        </div>
        <div className="mp-page-actions">
          {treatment.modified && (
            <Tag intent="warning" minimal large>
              {t('modified', { name: treatment.modified.by.name, date: formatDateTime(treatment.modified.at, i18n.language) })}
            </Tag>
          )}
          {current > 0 && <ChangeHistory treatmentId={treatment.id} />}
          <Button icon="key" variant="minimal" onClick={() => setHelp(true)}>
            {t('hotkeys.open')}
          </Button>
        </div>
      </div>
      <Stepper treatment={treatment} opened={step} current={current} />
      {step === 0 && <ProcessingStep treatment={treatment} />}
      {step === 5 && (
        <Suspense fallback={<div className={`mp-step-skeleton ${Classes.SKELETON}`} aria-hidden="true" />}>
          <ParameterSetStep treatment={treatment} role={profile.role} />
        </Suspense>
      )}
      {stepProps && step === 1 && <ExclusionZonesStep key={key} {...stepProps} />}
      {stepProps && step === 2 && <MaculaGridStep key={key} {...stepProps} />}
      {stepProps && step === 3 && <BrightnessStep key={key} {...stepProps} />}
      {stepProps && step === 4 && <SignOffStep key={key} {...stepProps} />}
      <HotkeysDialog isOpen={help} onClose={() => setHelp(false)} />
    </div>
  );
}
