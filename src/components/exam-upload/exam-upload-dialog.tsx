import { Button, Callout, DialogBody, DialogFooter, ProgressBar } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getGetPatientQueryKey, getListPatientsQueryKey, getListPatientTreatmentsQueryKey } from '@generated/hooks/patients/patients';
import { uploadTreatment } from '@generated/hooks/treatments/treatments';
import type { DuplicateUploadError } from '@generated/model/duplicateUploadError';
import type { PatientComparison } from '@generated/model/patientComparison';
import type { UploadPatientMismatchError } from '@generated/model/uploadPatientMismatchError';
import type { TreatmentUploadResponse } from '@generated/model/treatmentUploadResponse';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { paths } from '@/config/paths';
import { ApiError, isCancelled } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { PatientMismatch } from './patient-mismatch';
import { throughputMeter } from './throughput';
import './exam-upload.css';
import './icons';

type Patient = { id: string; name: string; secondName: string };

type ExamUploadDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  /** Upload into this patient's card ("add new session"); absent: the file's patient is found or created. */
  patient?: Patient;
  /** Which of the specification's entries opened it (the list's add menu): its title and what it will do. */
  purpose?: UploadPurpose;
  /** A file chosen already: the one brought from another patient's card ("Go to the patient"). */
  initialFile?: File;
};

/** What the card's page reads from the navigation's state: the exam file brought from another card. */
export type ExamHandover = { examFile?: unknown };

/** "Create new patient from an NPT file" or "add new session from an NPT file": the same upload, told as asked. */
export type UploadPurpose = 'newPatient' | 'newSession';

type Progress = { loaded: number; total: number; slow: boolean };

type Outcome =
  | { kind: 'choosing' }
  | { kind: 'uploading'; progress: Progress }
  | { kind: 'done'; answer: TreatmentUploadResponse }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string }
  | { kind: 'duplicate'; message: string; treatment: DuplicateUploadError['treatment'] }
  | { kind: 'mismatch'; message: string; filePatient: UploadPatientMismatchError['patient']; comparison: PatientComparison };

const isNptFile = (file: File) => /\.npt$/i.test(file.name);


function outcomeOfFailure(error: unknown, failureMessage: (error: unknown) => string): Outcome {
  if (isCancelled(error)) return { kind: 'cancelled' };
  const message = failureMessage(error);
  if (error instanceof ApiError && error.status === 409) {
    const body = error.body as Partial<DuplicateUploadError & UploadPatientMismatchError> | undefined;
    if (body?.treatment) return { kind: 'duplicate', message, treatment: body.treatment };
    if (body?.patient && body.comparison) return { kind: 'mismatch', message, filePatient: body.patient, comparison: body.comparison };
  }
  return { kind: 'failed', message };
}

/**
 * "Upload NPT file", "Add new session from an NPT file" and "Create new patient from an NPT file" (patient
 * list): one dialog that sends one exam file and says what became of it.
 */
export function ExamUploadDialog({ isOpen, onClose, patient, purpose, initialFile }: ExamUploadDialogProps) {
  const { t, i18n } = useTranslation('examUpload');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const failureMessage = useFailureMessage();
  const [file, setFile] = useState<File | undefined>(initialFile);
  const [fileProblem, setFileProblem] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'choosing' });
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const ids = { input: useId(), problem: useId(), status: useId() };

  // An upload still running when the dialog goes away (closed, page left) is cancelled.
  useEffect(() => () => abort.current?.abort(), []);

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    if (!isNptFile(chosen)) {
      setFileProblem(t('wrongType', { name: chosen.name }));
      return;
    }
    setFileProblem(undefined);
    setFile(chosen);
    setOutcome({ kind: 'choosing' });
  };

  /** Sends the file, to `into`'s card when given; `confirmDevicePatientId` after a person said it is the same patient. */
  const upload = async (into: Patient | undefined, confirmDevicePatientId = false) => {
    if (!file) return;
    const controller = new AbortController();
    abort.current = controller;
    const meter = throughputMeter();
    setOutcome({ kind: 'uploading', progress: { loaded: 0, total: file.size, slow: false } });
    try {
      const params = into ? { patientId: into.id, ...(confirmDevicePatientId && { confirmDevicePatientId }) } : undefined;
      const answer = await uploadTreatment({ file }, params, {
        signal: controller.signal,
        onUploadProgress: ({ loaded, total }) => {
          const slow = meter.record({ at: performance.now(), loaded });
          setOutcome((current) =>
            current.kind === 'uploading'
              ? { kind: 'uploading', progress: { loaded, total: total ?? file.size, slow: slow || current.progress.slow } }
              : current,
          );
        },
      });
      const { patient: uploadedFor } = answer.data;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() }),
        queryClient.invalidateQueries({ queryKey: getGetPatientQueryKey(uploadedFor.id) }),
        queryClient.invalidateQueries({ queryKey: getListPatientTreatmentsQueryKey(uploadedFor.id) }),
      ]);
      setOutcome({ kind: 'done', answer });
    } catch (error) {
      setOutcome(outcomeOfFailure(error, failureMessage));
    } finally {
      abort.current = undefined;
    }
  };

  const close = () => {
    abort.current?.abort();
    setFile(undefined);
    setFileProblem(undefined);
    setOutcome({ kind: 'choosing' });
    onClose();
  };

  /** To a patient's card; with `keepFile` the chosen file goes along, chosen in that card's upload dialog. */
  const goTo = (patientId: string, keepFile = false) => {
    const examFile = keepFile ? file : undefined;
    close();
    void navigate(paths.physician.patientCard.getHref(patientId), examFile ? { state: { examFile } satisfies ExamHandover } : undefined);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (outcome.kind !== 'uploading') choose(event.dataTransfer.files[0]);
  };

  const uploading = outcome.kind === 'uploading';
  const title = patient
    ? t('titleForPatient', { patient: `${patient.name} ${patient.secondName}` })
    : purpose
      ? t(`purpose.${purpose}.title`)
      : t('title');

  return (
    <Dialog isOpen={isOpen} onClose={close} title={title} className="mp-dialog" canOutsideClickClose={!uploading}>
      <DialogBody>
        <div
          className={`mp-drop-zone${dragging ? ' mp-drop-zone-active' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          {!patient && purpose && <p>{t(`purpose.${purpose}.text`)}</p>}
          <p>{t('dropHint')}</p>
          {/* A button of our own opens the file picker: Blueprint's FileInput cuts longer button texts. */}
          <input
            ref={input}
            id={ids.input}
            type="file"
            accept=".npt"
            className="mp-visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              choose(event.currentTarget.files?.[0]);
              event.currentTarget.value = '';
            }}
          />
          <Button
            icon="folder-open"
            disabled={uploading}
            onClick={() => input.current?.click()}
            aria-describedby={fileProblem ? ids.problem : undefined}
          >
            {t('browse')}
          </Button>
          <p className="mp-file-name">{file ? file.name : t('noFile')}</p>
          {file && <p className="mp-file-size">{formatBytes(file.size, i18n.language)}</p>}
        </div>
        {fileProblem && (
          <Callout intent="danger" role="alert" id={ids.problem} className="mp-upload-callout">
            {fileProblem}
          </Callout>
        )}
        <div id={ids.status} role="status" aria-live="polite">
          <UploadStatus
            outcome={outcome}
            patient={patient}
            onGoTo={goTo}
            onCreateFromFile={() => void upload(undefined)}
            onUploadAnyway={() => void upload(patient, true)}
          />
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          uploading ? (
            <Button onClick={() => abort.current?.abort()}>{t('cancelUpload')}</Button>
          ) : outcome.kind === 'done' ? (
            <Button intent="primary" onClick={close}>
              {t('close')}
            </Button>
          ) : (
            <>
              <Button onClick={close}>{t('close')}</Button>
              <Button intent="primary" icon="upload" disabled={!file} onClick={() => void upload(patient)}>
                {outcome.kind === 'failed' || outcome.kind === 'cancelled' ? t('retry') : t('upload')}
              </Button>
            </>
          )
        }
      />
    </Dialog>
  );
}

type UploadStatusProps = {
  outcome: Outcome;
  patient: Patient | undefined;
  onGoTo: (patientId: string, keepFile?: boolean) => void;
  onCreateFromFile: () => void;
  onUploadAnyway: () => void;
};

function UploadStatus({ outcome, patient, onGoTo, onCreateFromFile, onUploadAnyway }: UploadStatusProps) {
  const { t, i18n } = useTranslation('examUpload');
  switch (outcome.kind) {
    case 'choosing':
      return null;
    case 'uploading': {
      const { loaded, total, slow } = outcome.progress;
      const share = total > 0 ? loaded / total : 0;
      return (
        <div className="mp-upload-progress">
          <ProgressBar value={share} intent="primary" stripes={share < 1} aria-label={t('progressLabel')} />
          <p>
            {share < 1
              ? t('progress', {
                  loaded: formatBytes(loaded, i18n.language),
                  total: formatBytes(total, i18n.language),
                  percent: Math.floor(share * 100),
                })
              : t('checking')}
          </p>
          {slow && (
            <Callout intent="warning" title={t('slow.title')} className="mp-upload-callout">
              {t('slow.text')}
            </Callout>
          )}
        </div>
      );
    }
    case 'cancelled':
      return (
        <Callout intent="none" className="mp-upload-callout">
          {t('cancelled')}
        </Callout>
      );
    case 'failed':
      return (
        <Callout intent="danger" title={t('failedTitle')} className="mp-upload-callout">
          {outcome.message}
        </Callout>
      );
    case 'duplicate':
      return (
        <Callout intent="warning" title={t('duplicateTitle')} className="mp-upload-callout">
          <p>{outcome.message}</p>
          <Button onClick={() => onGoTo(outcome.treatment.patientId)}>{t('openExisting')}</Button>
        </Callout>
      );
    case 'mismatch':
      return (
        <PatientMismatch
          filePatient={outcome.filePatient}
          comparison={outcome.comparison}
          // The file is another patient's: it goes along to their card, ready to be uploaded there.
          onGoTo={(patientId) => onGoTo(patientId, true)}
          onCreateFromFile={onCreateFromFile}
          onUploadAnyway={onUploadAnyway}
        />
      );
    case 'done': {
      const { patient: uploadedFor, patientCreated, treatment } = outcome.answer.data;
      const name = `${uploadedFor.name} ${uploadedFor.secondName}`;
      return (
        <Callout intent="success" title={t('done.title')} className="mp-upload-callout">
          <p>{patientCreated ? t('done.patientCreated', { patient: name }) : t('done.sessionAdded', { number: treatment.number, patient: name })}</p>
          <p>{t('done.processing')}</p>
          {uploadedFor.id !== patient?.id && (
            <Button intent="primary" onClick={() => onGoTo(uploadedFor.id)}>
              {t('done.openCard')}
            </Button>
          )}
        </Callout>
      );
    }
  }
}
