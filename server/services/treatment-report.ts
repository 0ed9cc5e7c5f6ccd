// The treatment report of a signed-off session (GET /treatments/{id}/treatment-report): the session as the
// card and the wizard read it, its patient, its display image from the file store and the labels and
// measurements on it, drawn by server/report/treatment-report-pdf.ts in the reader's language.
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { conflict, invalid } from '../http/errors';
import { clinicName } from '../repositories/clinic';
import { treatedTransferOf } from '../repositories/transfers';
import { canonicalTimeZone } from '../report/treatment-report-pdf';
import { listMarksForReport } from './annotations';
import { audit } from './audit';
import { getPatientOrThrow } from './patients';
import { imageFileOf, loadTreatment } from './treatments';
import { runTask } from '../workers/pool';
import { asBuffer, Handover } from '../workers/transfer';

export interface TreatmentReport {
  fileName: string;
  bytes: Buffer;
}

/**
 * The report of a session of the caller's clinic. Ready once the plan is signed off and its parameter set
 * packed; a locked session (issue reported) gets its report from sign-off on, saying that it is locked. Drawn
 * in the actor's language; the download is audited with it and the time zone.
 */
export async function treatmentReport(
  ctx: AppContext,
  actor: Actor,
  treatmentId: string,
  /** The reader's IANA time zone; UTC when not given. */
  timeZone = 'UTC',
): Promise<TreatmentReport> {
  const { lang } = actor;
  const zone = canonicalTimeZone(timeZone);
  if (!zone) throw invalid({ timeZone: ['report.time_zone_unknown'] });
  const treatment = await loadTreatment(ctx.db, actor.clinicId, treatmentId, lang);
  const { plan } = treatment;
  if (!plan.signOff || (!plan.parameterSet && !treatment.locked)) {
    throw conflict('treatment.report_not_ready', 'treatment.report_not_ready');
  }
  const patient = await getPatientOrThrow(ctx.db, actor.clinicId, treatment.patientId, true);
  const clinic = await clinicName(ctx.db, actor.clinicId);
  const fundus = treatment.images.find((image) => image.role === 'fundus');
  const jpeg = fundus ? await ctx.files.get(await imageFileOf(ctx.db, actor.clinicId, treatment.id, fundus.id, 'display')) : null;
  const marks = fundus ? (await listMarksForReport(ctx.db, actor.clinicId, treatment.id, fundus.id, lang)).marks : [];
  const treated = await treatedTransferOf(ctx.db, treatment.id);
  const delivery = treated?.finished_at
    ? {
        device: { deviceId: treated.device_serial, description: treated.device_description },
        at: new Date(treated.finished_at).toISOString(),
        spots: (treated.delivery ?? []).map(({ id, powerMw }) => ({ id, powerMw })),
      }
    : null;
  // Drawn in a worker thread (server/report/treatment-report-pdf.ts).
  const handover = new Handover();
  const pdf = await runTask(
    'renderReport',
    {
      lang,
      timeZone: zone,
      clinicName: clinic,
      patient,
      treatment,
      image: fundus && jpeg ? { jpeg: handover.move(jpeg), width: fundus.width, height: fundus.height } : null,
      marks,
      delivery,
    },
    handover,
  );
  const bytes = asBuffer(pdf);
  const date = treatment.date.slice(0, 10);
  await audit(ctx.db, actor, {
    action: 'plan.report_downloaded',
    outcome: 'success',
    targetType: 'treatment',
    targetId: treatment.id,
    detail: { lang, timeZone: zone },
  });
  return { fileName: `treatment-report-${treatment.id.slice(0, 8)}-${treatment.eye}-${date}.pdf`, bytes };
}
