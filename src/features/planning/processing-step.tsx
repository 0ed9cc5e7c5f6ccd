import { Callout, ProgressBar } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Treatment } from '@generated/model/treatment';
import { paths } from '@/config/paths';

/** Wizard step 0: the exam file being processed (disc and fovea detection), or why it failed ("Error Detected"). */
export function ProcessingStep({ treatment }: { treatment: Treatment }) {
  const { t } = useTranslation('planning');
  return (
    <section className="mp-step-single" aria-labelledby="mp-step-title">
      <h2 id="mp-step-title" className="mp-step-title">
        {t('steps.0')}
      </h2>
      {treatment.error ? (
        <Callout intent="danger" title={t('processing.error')} className="mp-step-callout" role="alert">
          <p>{treatment.error.message}</p>
          <p>
            {t('processing.errorHelp')} <Link to={paths.physician.patientCard.getHref(treatment.patientId)}>{t('backToCard')}</Link>
          </p>
        </Callout>
      ) : (
        <div className="mp-progress" role="status">
          <p>{t(treatment.planStatus === 'file_uploaded' ? 'processing.waiting' : 'processing.running')}</p>
          <ProgressBar intent="primary" aria-label={t('processing.running')} />
          <p className="mp-muted-text">{t('processing.note')}</p>
        </div>
      )}
    </section>
  );
}
