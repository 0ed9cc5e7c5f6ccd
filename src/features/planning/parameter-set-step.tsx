import { Button, Callout, ProgressBar } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadParameterSet } from '@generated/hooks/treatments/treatments';
import type { Role } from '@generated/model/role';
import type { Treatment } from '@generated/model/treatment';
import { useFailureMessage } from '@/components/form-fields';
import { saveTreatmentReport } from '@/components/treatment-report';
import { blobFailureMessage } from '@/lib/blob-failure';
import { formatBytes, formatDateTime } from '@/lib/format';
import { saveBlob } from '@/lib/save-blob';
import { LaserPanel } from './laser-panel';
import { useStepHeadingFocus } from './step-panel';
// For the bundle only. This step loads lazily (planning-page.tsx). Rolldown groups modules into chunks by which
// entries reach them and does not see that the page has loaded them already: a lazy module that reaches only part of
// the chunks its page loads splits those chunks, which cost every route 0.1–0.5 kB, the sign-in page too (measured,
// issue 29). Reaching the page makes this module reach them whole, so its own chunk is all it adds.
import './planning-page';

/**
 * Wizard step 5: packing the parameter set for the laser, then its file name, size and SHA-256, and its download;
 * below, the laser it goes to (issue 29). The download by hand stays, with or without a connected laser.
 */
export function ParameterSetStep({ treatment, role }: { treatment: Treatment; role: Role }) {
  const { t, i18n } = useTranslation('planning');
  const failureMessage = useFailureMessage();
  const [downloading, setDownloading] = useState<'parameterSet' | 'report' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useStepHeadingFocus();
  const { parameterSet, signOff } = treatment.plan;

  const download = async (what: 'parameterSet' | 'report') => {
    if (!parameterSet) return;
    setDownloading(what);
    setFailure(null);
    try {
      if (what === 'parameterSet') saveBlob(await downloadParameterSet(treatment.id), parameterSet.fileName);
      else await saveTreatmentReport(treatment, i18n);
    } catch (error) {
      setFailure((await blobFailureMessage(error)) ?? failureMessage(error));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <section className="mp-step-single" aria-labelledby="mp-step-title">
      <h2 id="mp-step-title" className="mp-step-title" ref={heading} tabIndex={-1}>
        {t('steps.5')}
      </h2>
      {signOff && <p>{t('parameterSet.signedBy', { name: signOff.by.name, date: formatDateTime(signOff.at, i18n.language) })}</p>}
      {!parameterSet ? (
        <div className="mp-progress" role="status">
          <p>{t('parameterSet.packing')}</p>
          <ProgressBar intent="primary" aria-label={t('parameterSet.packing')} />
          <p className="mp-muted-text">{t('parameterSet.packingNote')}</p>
        </div>
      ) : (
        <>
          <Callout intent="success" compact className="mp-step-callout" title={t('parameterSet.ready')}>
            {t('parameterSet.readyText')}
          </Callout>
          <dl className="mp-definition-list mp-parameter-set">
            <div className="mp-setting">
              <dt>{t('parameterSet.fileName')}</dt>
              <dd>{parameterSet.fileName}</dd>
            </div>
            <div className="mp-setting">
              <dt>{t('parameterSet.size')}</dt>
              <dd>{formatBytes(parameterSet.size, i18n.language)}</dd>
            </div>
            <div className="mp-setting">
              <dt>{t('parameterSet.sha256')}</dt>
              <dd className="mp-hash">{parameterSet.sha256}</dd>
            </div>
            <div className="mp-setting">
              <dt>{t('parameterSet.createdAt')}</dt>
              <dd>{formatDateTime(parameterSet.createdAt, i18n.language)}</dd>
            </div>
          </dl>
          <div className="mp-step-actions">
            <Button intent="primary" size="large" icon="download" loading={downloading === 'parameterSet'} onClick={() => void download('parameterSet')}>
              {t('parameterSet.download')}
            </Button>
            <Button size="large" icon="document" loading={downloading === 'report'} onClick={() => void download('report')}>
              {t('parameterSet.report')}
            </Button>
          </div>
          <p className="mp-muted-text">{t('parameterSet.reportNote')}</p>
          <LaserPanel treatment={treatment} role={role} />
          {failure && (
            <Callout intent="danger" compact className="mp-step-callout" role="alert">
              {failure}
            </Callout>
          )}
        </>
      )}
    </section>
  );
}
