import { Button, Card, Classes } from '@blueprintjs/core';
import { lazy, Suspense, useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useGetPatient, useListPatientTreatments } from '@generated/hooks/patients/patients';
import type { TreatmentSummary } from '@generated/model/treatmentSummary';
import type { ExamHandover } from '@/components/exam-upload/exam-upload-dialog';
import { useFailureMessage } from '@/components/form-fields';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { rememberPatient } from '@/lib/recent-patients';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { isUuid } from '@/lib/uuid';
import { isInProgress, SESSION_LIST_PARAMS } from './card-queries';
import { GeneralInfo } from './general-info';
import { PROCESSING_REFETCH_MS, SessionCard } from './session-card';
import { SessionComparison } from './session-comparison';
import './icons';
import './patient-card.css';
import { useRefetchInterval } from '@/lib/realtime';

const EditPatientDialog = lazy(async () => ({ default: (await import('./edit-patient-dialog')).EditPatientDialog }));
const RequestDeletionDialog = lazy(async () => ({
  default: (await import('./request-deletion-dialog')).RequestDeletionDialog,
}));
const ExamUploadDialog = lazy(async () => ({
  default: (await import('@/components/exam-upload/exam-upload-dialog')).ExamUploadDialog,
}));

// The route's loader comes with the page's module (src/app/router.tsx lazy-loads both at once).
export { patientCardLoader } from './patient-card-loader';

/**
 * The two sessions compared at first: the two newest whose processing succeeded, the newest as if picked last,
 * so that picking another session compares it with the newest.
 */
function defaultPair(sessions: TreatmentSummary[]): string[] {
  return sessions
    .filter((session) => !session.error && !isInProgress(session.planStatus))
    .slice(0, 2)
    .map((session) => session.id)
    .reverse();
}

/** Earlier session first, as comparePatientTreatments expects. */
function inDateOrder(ids: string[], sessions: TreatmentSummary[]): { first: string; second: string } {
  const [a, b] = ids.map((id) => sessions.find((session) => session.id === id)!);
  return a.date <= b.date ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
}

/** A card that cannot be shown: its own page, with the way back. */
function CardProblem({ title, text, action }: { title: string; text: string; action: ReactNode }) {
  return (
    <div className="mp-card-problem">
      <h1 className="mp-page-title">{title}</h1>
      <p>{text}</p>
      {action}
    </div>
  );
}

function NotFound() {
  const { t } = useTranslation('patientCard');
  return (
    <CardProblem
      title={t('notFound.title')}
      text={t('notFound.text')}
      action={<Link to={paths.physician.list.getHref()}>{t('backToList')}</Link>}
    />
  );
}

/** /physician/patient-card?patientId=…: one patient, their sessions, and what can be done with them. */
export function PatientCardPage() {
  const { t } = useTranslation('patientCard');
  const profile = useSignedInProfile();
  const failureMessage = useFailureMessage();
  const [params] = useSearchParams();
  const patientId = params.get('patientId') ?? '';
  const validId = isUuid(patientId);
  const sessionsTitleId = useId();
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'upload' | null>(null);
  const [picked, setPicked] = useState<string[] | null>(null);
  // An exam file brought from another card ("Go to the patient" in its wrong-patient warning): this card's upload
  // dialog opens with it chosen. Taken out of the history entry at once, so that a reload does not bring it again.
  const location = useLocation();
  const navigate = useNavigate();
  const [handedFile, setHandedFile] = useState<File>();
  const handed = (location.state as ExamHandover | null)?.examFile;
  useEffect(() => {
    if (!(handed instanceof File)) return;
    setHandedFile(handed);
    setDialog('upload');
    void navigate({ search: location.search }, { replace: true, state: null });
  }, [handed, location.search, navigate]);

  const refetchInterval = useRefetchInterval(PROCESSING_REFETCH_MS);
  const patientQuery = useGetPatient(patientId, { query: { enabled: validId, refetchInterval: () => refetchInterval(false) } });
  const patient = patientQuery.data?.data;
  const sessionsQuery = useListPatientTreatments(
    patientId,
    SESSION_LIST_PARAMS,
    {
      query: {
        enabled: validId && Boolean(patient),
        refetchInterval: (query) => refetchInterval(query.state.data?.data.some((session) => isInProgress(session.planStatus)) ?? false),
      },
    },
  );
  const sessions = sessionsQuery.data?.data ?? [];

  useEffect(() => {
    if (patient) rememberPatient(profile.id, patient);
  }, [patient, profile.id]);

  if (!validId || (patientQuery.error instanceof ApiError && patientQuery.error.status === 404)) return <NotFound />;
  if (patientQuery.isError) {
    return (
      <CardProblem
        title={t('loadFailed')}
        text={failureMessage(patientQuery.error)}
        action={<Button onClick={() => void patientQuery.refetch()}>{t('retry')}</Button>}
      />
    );
  }
  if (!patient) {
    return (
      <>
        <h1 className={`mp-page-title ${Classes.SKELETON}`}>{t('loading')}</h1>
        <Card className={`mp-card-section mp-card-skeleton ${Classes.SKELETON}`} aria-hidden="true" />
      </>
    );
  }

  const comparable = sessions.filter((session) => !session.error && !isInProgress(session.planStatus));
  // Picks of sessions deleted since, or still processing, drop out.
  const pair = (picked ?? defaultPair(sessions)).filter((id) => comparable.some((session) => session.id === id));
  const pick = (id: string, selected: boolean) => {
    const current = pair.filter((picked) => picked !== id);
    // A third pick replaces the one picked before the other.
    setPicked(selected ? [...current.slice(-1), id] : current);
  };

  return (
    <>
      <nav className="mp-breadcrumb" aria-label={t('breadcrumb')}>
        <Link to={paths.physician.list.getHref()}>{t('backToList')}</Link>
      </nav>
      <div className="mp-page-header">
        <h1 className="mp-page-title">{t('title', { name: patient.name, secondName: patient.secondName })}</h1>
        <div className="mp-page-actions">
          <Button intent="primary" icon="upload" onClick={() => setDialog('upload')}>
            {t('actions.uploadNpt')}
          </Button>
          <Button icon="trash" intent="danger" variant="outlined" onClick={() => setDialog('delete')}>
            {t('actions.requestDeletion')}
          </Button>
        </div>
      </div>
      <div className="mp-card-grid">
        <GeneralInfo patient={patient} onEdit={() => setDialog('edit')} />
        <section className="mp-sessions" aria-labelledby={sessionsTitleId}>
          <div className="mp-section-header">
            <h2 id={sessionsTitleId} className="mp-card-title">
              {t('sessions.title', { count: sessions.length })}
            </h2>
            {/* The specification's "add new session from an NPT file", where the sessions are: the same upload. */}
            <Button icon="upload" variant="outlined" size="small" onClick={() => setDialog('upload')}>
              {t('actions.newSessionFromNpt')}
            </Button>
          </div>
          {sessionsQuery.isPending && <Card className={`mp-session ${Classes.SKELETON}`} aria-hidden="true" />}
          {sessionsQuery.isError && <p role="alert">{failureMessage(sessionsQuery.error)}</p>}
          {sessionsQuery.isSuccess && sessions.length === 0 && (
            <Card className="mp-session mp-sessions-empty">
              <p>{t('sessions.empty')}</p>
              <Button intent="primary" icon="upload" onClick={() => setDialog('upload')}>
                {t('actions.uploadNpt')}
              </Button>
            </Card>
          )}
          {sessions.map((session) => (
            <SessionCard
              key={session.id}
              session={session}
              canCompare={comparable.length > 2 && comparable.some((c) => c.id === session.id)}
              selected={pair.includes(session.id)}
              onSelect={(selected) => pick(session.id, selected)}
            />
          ))}
        </section>
      </div>
      {pair.length === 2 ? (
        <SessionComparison patientId={patient.id} {...inDateOrder(pair, sessions)} />
      ) : (
        comparable.length >= 2 && <p className="mp-muted-text">{t('comparison.pickTwo')}</p>
      )}
      <Suspense>
        {dialog === 'edit' && <EditPatientDialog patient={patient} onClose={() => setDialog(null)} />}
        {dialog === 'delete' && <RequestDeletionDialog patient={patient} userId={profile.id} onClose={() => setDialog(null)} />}
        {dialog === 'upload' && (
          <ExamUploadDialog
            isOpen
            patient={patient}
            initialFile={handedFile}
            onClose={() => {
              setDialog(null);
              setHandedFile(undefined);
            }}
          />
        )}
      </Suspense>
    </>
  );
}
