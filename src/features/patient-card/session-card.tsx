import { Alert, Button, Callout, Card, Classes, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { getGetPatientQueryKey, getListPatientsQueryKey, getListPatientTreatmentsQueryKey } from '@generated/hooks/patients/patients';
import {
  downloadParameterSet,
  getGetTreatmentQueryKey,
  getTreatment,
  useDeleteTreatment,
  useGetTreatment,
  useGetTreatmentImage,
  useReportTreatmentIssue,
  useUpdateTreatment,
  useWithdrawIssueReport,
} from '@generated/hooks/treatments/treatments';
import { PlanStatus } from '@generated/model/planStatus';
import { Role } from '@generated/model/role';
import type { Treatment } from '@generated/model/treatment';
import type { TreatmentSummary } from '@generated/model/treatmentSummary';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { saveTreatmentReport } from '@/components/treatment-report';
import { useNotify } from '@/components/notifications';
import { PlanStatusTag, shownPlanStatus } from '@/components/plan-status-tag';
import { TransferStatusTag } from '@/components/transfer-state';
import { paths } from '@/config/paths';
import { formatDate, formatDateTime } from '@/lib/format';
import { canonicalRole } from '@/lib/roles';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { useObjectUrl } from '@/lib/use-object-url';
import { blobFailureMessage } from '@/lib/blob-failure';
import { saveBlob } from '@/lib/save-blob';
import { isInProgress } from './card-queries';
import { DiagnosticData } from './diagnostic-data';
import { TextEditor } from './text-editor';
import { useRefetchInterval } from '@/lib/realtime';

// The image with its marks comes with its first opening, with the marks' code (src/components/fundus-marks).
const ImageMarksDialog = lazy(async () => ({ default: (await import('./image-marks-dialog')).ImageMarksDialog }));

const SESSION_DESCRIPTION_MAX = 2000;
const REASON_MAX = 2000;
/** While the session is being processed, it is read again this often while realtime is down (rarer while up). */
export const PROCESSING_REFETCH_MS = 3000;

/** After a change to a session: the card's lists and the patient list show it. */
function useRefreshSession(session: TreatmentSummary) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getGetTreatmentQueryKey(session.id) }),
      queryClient.invalidateQueries({ queryKey: getListPatientTreatmentsQueryKey(session.patientId) }),
      queryClient.invalidateQueries({ queryKey: getGetPatientQueryKey(session.patientId) }),
      queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() }),
    ]);
}

/** The thumbnail's width; its height follows the image, 4:3 (the laser's fundus images) until the session is known. */
const THUMBNAIL_WIDTH = 160;
const THUMBNAIL_HEIGHT_UNKNOWN = 120;

/**
 * The session's first image, small. Its box has the image's size from the start (while the session and then the
 * image load), so nothing below it moves when the picture arrives: a button pressed a moment later is still there.
 */
function Thumbnail({ treatment, label }: { treatment: Treatment | undefined; label: string }) {
  const image = treatment?.images[0];
  const blob = useGetTreatmentImage(treatment?.id ?? '', image?.id ?? '', 'thumbnail', {
    query: { enabled: Boolean(image), meta: { persist: false }, staleTime: Infinity },
  });
  const url = useObjectUrl(blob.data);
  const height = image ? Math.round((THUMBNAIL_WIDTH * image.height) / image.width) : THUMBNAIL_HEIGHT_UNKNOWN;
  if (image && url) return <img className="mp-thumbnail" src={url} alt={label} width={THUMBNAIL_WIDTH} height={height} />;
  const state = treatment && !image ? 'mp-thumbnail-empty' : Classes.SKELETON;
  return <div className={`mp-thumbnail ${state}`} style={{ height }} aria-hidden="true" />;
}

/** The session's laser settings (spot size … laser power), as the file brought them (or the plan changed them). */
function LaserSettings({ treatment, session }: { treatment: Treatment | undefined; session: TreatmentSummary }) {
  const { t, i18n } = useTranslation('patientCard');
  const number = (value: number | null | undefined, digits = 0) =>
    value === null || value === undefined
      ? '—'
      : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
  if (!treatment) return <div className={`mp-settings-skeleton ${Classes.SKELETON}`} aria-hidden="true" />;
  const rows: [string, string][] = [
    [t('settings.spotSize'), treatment.spotSizeUm === null ? '—' : `${number(treatment.spotSizeUm)} µm`],
    [t('settings.spacing'), treatment.spotSpacing === null ? '—' : t('settings.spacingValue', { value: number(treatment.spotSpacing, 2) })],
    [t('settings.pulseDuration'), treatment.pulseDurationMs === null ? '—' : `${number(treatment.pulseDurationMs, 1)} ms`],
    [t('settings.laserMode'), treatment.laserMode ? t(`settings.laserModes.${treatment.laserMode}`) : '—'],
    [t('settings.iolStatus'), treatment.iolStatus ? t(`settings.iolStatuses.${treatment.iolStatus}`) : '—'],
    [t('settings.laserPower'), treatment.laserDose === null ? '—' : `${number(treatment.laserDose, 1)} mW`],
    [t('settings.brightness'), number(session.brightness, 2)],
    [t('settings.totalSpots'), number(session.totalSpots)],
  ];
  return (
    <dl className="mp-definition-list mp-laser-settings">
      {rows.map(([term, value]) => (
        <div key={term} className="mp-setting">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReportIssueDialog({ session, onClose }: { session: TreatmentSummary; onClose: () => void }) {
  const { t } = useTranslation('patientCard');
  const notify = useNotify();
  const refresh = useRefreshSession(session);
  const failureMessage = useFailureMessage();
  const ids = { reason: useId(), error: useId() };
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const report = useReportTreatmentIssue({
    mutation: {
      onSuccess: async (answer) => {
        await refresh();
        notify({ intent: 'success', message: answer.message ?? t('report.done') });
        onClose();
      },
    },
  });
  return (
    <Dialog isOpen onClose={onClose} title={t('report.title', { number: session.number })} className="mp-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason.trim()) return setMissing(true);
          report.mutate({ id: session.id, data: { reason: reason.trim() } });
        }}
      >
        <DialogBody>
          <Callout intent="warning" className="mp-dialog-callout">
            {t('report.warning')}
          </Callout>
          {report.error && (
            <Callout intent="danger" role="alert" className="mp-dialog-callout">
              {failureMessage(report.error)}
            </Callout>
          )}
          <FormGroup label={t('report.reason')} labelFor={ids.reason} intent={missing ? 'danger' : 'none'}>
            <TextArea
              id={ids.reason}
              fill
              autoFocus
              rows={4}
              maxLength={REASON_MAX}
              value={reason}
              intent={missing ? 'danger' : 'none'}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? ids.error : undefined}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setMissing(false);
              }}
            />
            {missing && (
              <div id={ids.error} className={Classes.FORM_HELPER_TEXT}>
                {t('report.reasonRequired')}
              </div>
            )}
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('cancel')}</Button>
              <Button type="submit" intent="danger" loading={report.isPending}>
                {t('report.submit')}
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/**
 * "Withdraw report" asks first: it unlocks the session for everyone. The alert is named by its question (a dialog
 * without a name is announced as just "dialog").
 */
function WithdrawReportAlert({ session, onClose }: { session: TreatmentSummary; onClose: () => void }) {
  const { t } = useTranslation('patientCard');
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const refresh = useRefreshSession(session);
  const ids = { title: useId(), text: useId() };
  const withdraw = useWithdrawIssueReport({
    mutation: {
      onSuccess: async (answer) => {
        onClose();
        notify({ intent: 'success', message: answer.message ?? t('withdraw.done') });
        await refresh();
      },
      onError: async (error) => {
        onClose();
        notify({ intent: 'danger', message: failureMessage(error) });
        // Withdrawn by someone else meanwhile (409): the card shows the session as it now is.
        await refresh();
      },
    },
  });
  return (
    <Alert
      isOpen
      intent="primary"
      cancelButtonText={t('withdraw.keep')}
      confirmButtonText={t('withdraw.confirm')}
      loading={withdraw.isPending}
      onCancel={onClose}
      onConfirm={() => withdraw.mutate({ id: session.id })}
      aria-labelledby={ids.title}
      aria-describedby={ids.text}
    >
      <h2 id={ids.title} className="mp-card-title">
        {t('withdraw.title', { number: session.number })}
      </h2>
      <p id={ids.text}>{t('withdraw.text')}</p>
    </Alert>
  );
}

type SessionCardProps = {
  session: TreatmentSummary;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  canCompare: boolean;
};

/** One session (treatment) of the card: what it is, its state and its laser settings, and what can be done with it. */
export function SessionCard({ session, selected, onSelect, canCompare }: SessionCardProps) {
  const { t, i18n } = useTranslation(['patientCard', 'patients']);
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const refresh = useRefreshSession(session);
  const titleId = useId();
  const deleteIds = { title: useId(), text: useId() };
  const role = canonicalRole(useSignedInProfile().role);
  // Nurses report issues; physicians (and the IT admins, through the API) withdraw a report made by mistake.
  const canWithdraw = role === Role.clinic_physicians || role === Role.clinic_it_admins;
  const [dialog, setDialog] = useState<'delete' | 'report' | 'withdraw' | 'description' | 'marks' | null>(null);
  const processing = isInProgress(session.planStatus);
  // Read again while the list or the details themselves say processing: the list can see the end first, and
  // the details (images, laser settings) must not stay at their processing state.
  const refetchInterval = useRefetchInterval(PROCESSING_REFETCH_MS);
  const { data: full } = useGetTreatment(session.id, {
    query: {
      refetchInterval: (query) => {
        const details = query.state.data?.data;
        // Whatever is not in progress changes with the sessions list (read again there), not on its own.
        const busy = processing || (details !== undefined && isInProgress(details.planStatus));
        return busy ? refetchInterval(true) : false;
      },
    },
  });
  const treatment = full?.data;
  const remove = useDeleteTreatment({
    mutation: {
      onSuccess: async (answer) => {
        setDialog(null);
        notify({ intent: 'success', message: answer.message ?? t('delete.done') });
        await refresh();
      },
      onError: (error) => {
        setDialog(null);
        notify({ intent: 'danger', message: failureMessage(error) });
      },
    },
  });
  const update = useUpdateTreatment({
    mutation: {
      onSuccess: async (answer) => {
        setDialog(null);
        notify({ intent: 'success', message: answer.message ?? t('description.saved') });
        await refresh();
      },
      onError: (error) => notify({ intent: 'danger', message: failureMessage(error) }),
    },
  });
  const [downloading, setDownloading] = useState<'parameterSet' | 'treatmentReport' | null>(null);
  const download = async (file: 'parameterSet' | 'treatmentReport') => {
    setDownloading(file);
    try {
      if (file === 'parameterSet') {
        // Named as the server names it (its Content-Disposition, the wizard's download, the laser's check): one
        // parameter set, one file name wherever it is downloaded.
        const { fileName } = (treatment ?? (await getTreatment(session.id)).data).plan.parameterSet ?? {};
        saveBlob(await downloadParameterSet(session.id), fileName ?? 'parameter-set.npt');
      }
      else await saveTreatmentReport(session, i18n);
    } catch (error) {
      notify({ intent: 'danger', message: (await blobFailureMessage(error)) ?? failureMessage(error) });
    } finally {
      setDownloading(null);
    }
  };
  const hasParameterSet = session.planStatus === PlanStatus.plan_available;
  const noParameterSetReason = session.locked
    ? t('session.lockedActions')
    : session.error
      ? t('download.unavailableError')
      : processing
        ? t('download.unavailableProcessing')
        : t('download.unavailable');
  const noParameterSetId = useId();
  const noReportId = useId();
  // Signed off and packed: the report is the record's, so a session locked afterwards still offers it (the
  // report then says an issue was reported and the parameter set is withheld).
  const hasReport = hasParameterSet || Boolean(treatment?.plan.parameterSet);
  const hasImage = Boolean(treatment?.images.length);
  const status = shownPlanStatus(session.planStatus, Boolean(session.error));
  const { transfer } = session;

  return (
    <Card className="mp-session" role="article" aria-labelledby={titleId}>
      <div className="mp-session-head">
        <Thumbnail treatment={treatment} label={t('session.imageAlt', { number: session.number })} />
        <div className="mp-session-summary">
          <h3 id={titleId} className="mp-session-title">
            {t('session.title', { number: session.number, date: formatDate(session.date, i18n.language) })}
          </h3>
          <p className="mp-session-meta">
            <span>{t(`patients:eye.${session.eye}`)}</span>
            <PlanStatusTag status={status} />
            {transfer && <TransferStatusTag status={transfer.status} />}
            {transfer?.status === 'treated' && transfer.finishedAt && (
              <span>{t('patients:transfer.treatedOn', { date: formatDate(transfer.finishedAt, i18n.language) })}</span>
            )}
          </p>
          {session.modified && (
            <Callout intent="warning" compact className="mp-session-callout">
              {t('session.modified', { name: session.modified.by.name, date: formatDateTime(session.modified.at, i18n.language) })}
            </Callout>
          )}
          {session.error && (
            <Callout intent="danger" compact title={t('patients:planStatus.error')} className="mp-session-callout">
              {session.error.message}
            </Callout>
          )}
          {session.locked && (
            <Callout intent="warning" compact className="mp-session-callout">
              <p>{t('session.locked')}</p>
              {treatment?.issueReport && (
                <p className="mp-muted-text">
                  {t('session.reportedBy', {
                    name: treatment.issueReport.reportedBy.name,
                    date: formatDateTime(treatment.issueReport.reportedAt, i18n.language),
                    reason: treatment.issueReport.reason,
                  })}
                </p>
              )}
              {canWithdraw && treatment?.issueReport && (
                <Button size="small" className="mp-session-callout-action" onClick={() => setDialog('withdraw')}>
                  {t('session.withdraw')}
                </Button>
              )}
            </Callout>
          )}
          {processing && <p className="mp-muted-text">{t('session.processing')}</p>}
        </div>
        {canCompare && (
          <label className="mp-compare-pick">
            <input
              type="checkbox"
              checked={selected}
              aria-label={t('comparison.pickSession', { number: session.number })}
              onChange={(event) => onSelect(event.currentTarget.checked)}
            />
            {t('comparison.pick')}
          </label>
        )}
      </div>
      <LaserSettings treatment={treatment} session={session} />
      {treatment && <DiagnosticData diagnostics={treatment.diagnostics} sessionNumber={session.number} />}
      <div className="mp-session-description">
        {dialog === 'description' ? (
          <TextEditor
            label={t('session.description')}
            initial={session.description ?? ''}
            max={SESSION_DESCRIPTION_MAX}
            pending={update.isPending}
            onSave={(text) => update.mutate({ id: session.id, data: { description: text || null } })}
            onCancel={() => setDialog(null)}
          />
        ) : (
          <p className={session.description ? 'mp-preformatted' : 'mp-muted-text'}>
            {session.description ?? t('session.noDescription')}
          </p>
        )}
      </div>
      <div className="mp-session-actions">
        <Link
          className={`${Classes.BUTTON} ${session.locked || hasParameterSet ? '' : Classes.INTENT_PRIMARY}`}
          to={paths.physician.planning.getHref(session.id)}
        >
          {t(session.locked || hasParameterSet ? 'session.showPlan' : 'session.openPlanning')}
        </Link>
        <Button icon="media" disabled={!hasImage} onClick={() => setDialog('marks')}>
          {t('session.imageAndMarks')}
        </Button>
        <Button
          icon="download"
          disabled={!hasParameterSet}
          loading={downloading === 'parameterSet'}
          onClick={() => void download('parameterSet')}
          aria-describedby={hasParameterSet ? undefined : noParameterSetId}
        >
          {t('download.label')}
        </Button>
        {/* The report is ready once the plan is signed off and packed (else 409 treatment.report_not_ready). */}
        <Button
          icon="document"
          disabled={!hasReport}
          loading={downloading === 'treatmentReport'}
          onClick={() => void download('treatmentReport')}
          aria-describedby={hasReport ? undefined : noReportId}
        >
          {t('treatmentReport.label')}
        </Button>
        {!session.locked && (
          <>
            <Button icon="annotation" onClick={() => setDialog('description')}>
              {t('session.adjustDescription')}
            </Button>
            <Button icon="issue" onClick={() => setDialog('report')}>
              {t('report.label')}
            </Button>
          </>
        )}
        {/* A locked session keeps its issue report: its deletion is refused (423), and the note below says why. */}
        <Button
          icon="trash"
          intent="danger"
          variant="outlined"
          disabled={session.locked}
          onClick={() => setDialog('delete')}
          aria-describedby={session.locked ? noParameterSetId : undefined}
        >
          {t('delete.label')}
        </Button>
        {!hasParameterSet && (
          <span id={noParameterSetId} className="mp-muted-text mp-action-note">
            {noParameterSetReason}
          </span>
        )}
        {/* Said once on screen (the note above gives the same reason); the report's own for screen readers. */}
        {!hasReport && (
          <span id={noReportId} className="mp-visually-hidden">
            {session.locked ? t('treatmentReport.unavailableLocked') : t('treatmentReport.unavailable')}
          </span>
        )}
      </div>
      {dialog === 'report' && <ReportIssueDialog session={session} onClose={() => setDialog(null)} />}
      {dialog === 'withdraw' && <WithdrawReportAlert session={session} onClose={() => setDialog(null)} />}
      {dialog === 'marks' && (
        <Suspense fallback={null}>
          <ImageMarksDialog session={session} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      <Alert
        isOpen={dialog === 'delete'}
        intent="danger"
        icon="trash"
        cancelButtonText={t('cancel')}
        confirmButtonText={t('delete.confirm')}
        loading={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => remove.mutate({ id: session.id })}
        aria-labelledby={deleteIds.title}
        aria-describedby={deleteIds.text}
      >
        <h2 id={deleteIds.title} className="mp-card-title">
          {t('delete.title', { number: session.number })}
        </h2>
        <p id={deleteIds.text}>{t('delete.question', { number: session.number })}</p>
      </Alert>
    </Card>
  );
}
