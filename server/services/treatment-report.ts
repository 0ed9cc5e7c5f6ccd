// The treatment report of a signed-off session (GET /treatments/{id}/treatment-report): the session as the
// card and the wizard read it, its patient, its display image from the file store and the labels and
// measurements on it, drawn by server/report/treatment-report-pdf.ts in the reader's language.
import type { AppContext } from '../context';
import { conflict, invalid } from '../http/errors';
import type { Lang } from '../i18n';
import { canonicalTimeZone, renderTreatmentReport } from '../report/treatment-report-pdf';
import { listMarksForReport } from './annotations';
import { getPatientOrThrow } from './patients';
import { imageFileOf, loadTreatment } from './treatments';

export interface TreatmentReport {
  treatmentId: string;
  /** The time zone its times are stated in. */
  timeZone: string;
  fileName: string;
  bytes: Buffer;
}

/**
 * The report of a session of the caller's clinic. Ready once the plan is signed off and its parameter set
 * packed; a locked session (issue reported) gets its report from sign-off on, saying that it is locked.
 */
export async function treatmentReport(
  ctx: AppContext,
  actor: { clinicId: string },
  treatmentId: string,
  lang: Lang,
  /** The reader's IANA time zone; UTC when not given. */
  timeZone = 'UTC',
): Promise<TreatmentReport> {
  const zone = canonicalTimeZone(timeZone);
  if (!zone) throw invalid({ timeZone: ['report.time_zone_unknown'] });
  const treatment = await loadTreatment(ctx.db, actor.clinicId, treatmentId, lang);
  const { plan } = treatment;
  if (!plan.signOff || (!plan.parameterSet && !treatment.locked)) {
    throw conflict('treatment.report_not_ready', 'treatment.report_not_ready');
  }
  const patient = await getPatientOrThrow(ctx.db, actor.clinicId, treatment.patientId, true);
  const clinic = await ctx.db.selectFrom('clinics').select('name').where('id', '=', actor.clinicId).executeTakeFirstOrThrow();
  const fundus = treatment.images.find((image) => image.role === 'fundus');
  const jpeg = fundus ? await ctx.files.get(await imageFileOf(ctx.db, actor.clinicId, treatment.id, fundus.id, 'display')) : null;
  const marks = fundus ? (await listMarksForReport(ctx.db, actor.clinicId, treatment.id, fundus.id, lang)).marks : [];
  const bytes = await renderTreatmentReport({
    lang,
    timeZone: zone,
    clinicName: clinic.name,
    patient,
    treatment,
    image: fundus && jpeg ? { jpeg, width: fundus.width, height: fundus.height } : null,
    marks,
  });
  const date = treatment.date.slice(0, 10);
  return { treatmentId: treatment.id, timeZone: zone, fileName: `treatment-report-${treatment.id.slice(0, 8)}-${treatment.eye}-${date}.pdf`, bytes };
}
