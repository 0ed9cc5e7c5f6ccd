// The previous treatment on today's image (issue 17): an earlier session of the same patient and eye whose
// plan has a confirmed macula grid (the latest signed-off one unless another is asked for), its display image
// registered onto this session's (a background job, once per pair: src/domain/registration/earlier-treatment.ts),
// and its spots and zones carried over when read.
// The earlier plan is read afresh each time, so a later change to it shows at once; the registration depends
// on the two images and on the two plans' landmarks (fovea and disc): it is kept until a physician moves one of
// them, and then found again from where they now are.
import type { PreviousTreatment } from '../../generated/model/previousTreatment';
import { carryEarlierPlan } from '../../src/domain/registration/earlier-treatment';
import { rotationDegOf, scaleOf } from '../../src/domain/registration/similarity';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { JobRow, RegistrationLandmarks, TreatmentRow, Tx } from '../db/tables';
import { invalid } from '../http/errors';
import { translate, type Lang, type MessageKey } from '../i18n';
import { enqueue } from '../jobs/queue';
import type { Claim, JobDefinition } from '../jobs/worker';
import { announce, event } from '../realtime/announce';
import * as registrations from '../repositories/registrations';
import { treatedTransferOf } from '../repositories/transfers';
import type { EarlierSession, RegistrationOutcome } from '../repositories/registrations';
import { fundusDisplayPath, treatmentById } from '../repositories/treatments';
import { audit } from './audit';
import { findTreatmentRow } from './treatments';
import { runTask } from '../workers/pool';
import { Handover } from '../workers/transfer';

/** Plan step index of the confirmed macula grid (`macula_grid_pattern`): a grid someone planned. */
const GRID_CONFIRMED_STEP = 3;

/** The parts of an answer that has nothing on today's image (yet). */
const nothing = () => ({ registration: null, spots: [], exclusionZones: [], spotDiameterPx: null, message: null });

/**
 * Every earlier session of the patient's same eye with a planned grid: signed-off ones first (what was meant
 * to be lasered), then drafts; each by exam date, then number, newest first. The first is shown unless another
 * is asked for.
 */
const earlierPlannedSessions = (ctx: AppContext, today: TreatmentRow) => registrations.earlierPlannedSessions(ctx.db, today, GRID_CONFIRMED_STEP);

function previousSession(session: EarlierSession): NonNullable<PreviousTreatment['session']> {
  return {
    id: session.id,
    number: session.number,
    date: new Date(session.date).toISOString(),
    signedOff: session.sign_off_at !== null,
    signedOffAt: session.sign_off_at === null ? null : new Date(session.sign_off_at).toISOString(),
    treatedAt: session.treated_at === null ? null : new Date(session.treated_at).toISOString(),
  };
}

/** Has processing given this session what a registration needs: a plan with scale, fovea and disc? */
const registrable = (row: TreatmentRow) => Boolean(row.plan?.scale && row.plan.fovea && row.plan.opticDisc);

/**
 * A registrable plan's fovea and disc centre as they now stand: step 1 of the wizard makes the fovea the FAZ's
 * centre and keeps the disc's own point (moved with the ONH zone, or confirmed), not the zone's centre, which
 * a physician may draw off-centre to cover the margin.
 */
const landmarksOf = (row: TreatmentRow) => ({
  disc: row.plan!.opticDisc!.center,
  fovea: row.plan!.fovea!,
});

const landmarksOfPair = (today: TreatmentRow, earlier: TreatmentRow): RegistrationLandmarks | null =>
  registrable(today) && registrable(earlier) ? { earlier: landmarksOf(earlier), today: landmarksOf(today) } : null;

/** Are two sets of landmarks the same (to a hundredth of a pixel: jsonb keeps numbers, not their spelling)? */
function sameLandmarks(a: RegistrationLandmarks | null, b: RegistrationLandmarks | null): boolean {
  if (!a || !b) return a === b;
  const points = (l: RegistrationLandmarks) => [l.earlier.disc, l.earlier.fovea, l.today.disc, l.today.fovea];
  const [pa, pb] = [points(a), points(b)];
  return pa.every((p, i) => Math.abs(p.x - pb[i].x) < 0.01 && Math.abs(p.y - pb[i].y) < 0.01);
}

/**
 * Marks the pair pending by `mark` (an insert or a conditional update, which one of two readers wins) and, when
 * this reader won, queues the job in the same transaction. True when queued.
 */
async function queueRegistration(
  ctx: AppContext,
  today: TreatmentRow,
  mark: (tx: Tx) => Promise<boolean>,
): Promise<boolean> {
  return ctx.db.transaction().execute(async (tx) => {
    if (!(await mark(tx))) return false;
    await enqueue(tx, { kind: 'treatment.register', clinicId: today.clinic_id, subjectId: today.id, now: ctx.clock.now() });
    return true;
  });
}

/** The previous treatment as the caller reads it, in their language; the read is audited with what it showed. */
export async function readPreviousTreatment(ctx: AppContext, actor: Actor, treatmentId: string, wakeJobs: () => void, earlierSessionId?: string): Promise<PreviousTreatment> {
  const answer = await previousTreatment(ctx, actor.clinicId, treatmentId, actor.lang, wakeJobs, earlierSessionId);
  await audit(ctx.db, actor, {
    action: 'plan.previous_treatment_read',
    outcome: 'success',
    targetType: 'treatment',
    targetId: treatmentId,
    detail: { earlierTreatmentId: answer.session?.id ?? null, state: answer.state },
  });
  return answer;
}

/**
 * What GET /treatments/{id}/previous-treatment answers. The first read after today's exam was processed
 * queues the registration (once: the row's primary key decides between two readers) and answers `pending`; so
 * does the first read after a physician moved a landmark it was found from.
 */
export async function previousTreatment(
  ctx: AppContext,
  clinicId: string,
  treatmentId: string,
  lang: Lang,
  wakeJobs: () => void,
  earlierSessionId?: string,
): Promise<PreviousTreatment> {
  const today = await findTreatmentRow(ctx.db, clinicId, treatmentId);
  const candidates = await earlierPlannedSessions(ctx, today);
  const shown = earlierSessionId === undefined ? candidates[0] : candidates.find((candidate) => candidate.id === earlierSessionId);
  if (!shown) {
    if (earlierSessionId !== undefined) throw invalid({ earlierSessionId: ['previous_treatment.not_earlier'] });
    return { state: 'none', session: null, earlierSessions: [], ...nothing() };
  }
  const session = previousSession(shown);
  const earlierSessions = candidates.map(previousSession);
  if (today.processing_state === 'failed') {
    return { state: 'failed', session, earlierSessions, ...nothing(), message: translate(lang, 'previous_treatment.no_image') };
  }
  if (today.processing_state !== 'processed') return { state: 'pending', session, earlierSessions, ...nothing() };

  // Its plan, read only for the session shown (deleted since the list was read: as if there were none).
  const earlier = await treatmentById(ctx.db, shown.id);
  if (!earlier) return { state: 'none', session: null, earlierSessions: [], ...nothing() };
  const row = await registrations.registrationOf(ctx.db, today.id, earlier.id);
  // Queued when first read, and again when a landmark it was found from has moved since (one reader wins both).
  const queued = !row
    ? await queueRegistration(ctx, today, (tx) =>
        registrations.insertPendingRegistration(tx, { treatmentId: today.id, earlierTreatmentId: earlier.id, clinicId: today.clinic_id }),
      )
    : row.state !== 'pending' && !sameLandmarks(row.landmarks, landmarksOfPair(today, earlier))
      ? await queueRegistration(ctx, today, (tx) => registrations.markRegistrationPending(tx, today.id, earlier.id, ctx.clock.now()))
      : false;
  if (queued) wakeJobs();
  if (!row || queued) return { state: 'pending', session, earlierSessions, ...nothing() };
  if (row.state === 'pending') return { state: 'pending', session, earlierSessions, ...nothing() };
  if (row.state === 'failed' || !row.transform || row.method === null) {
    const code = (row.error_code ?? 'previous_treatment.unregistrable') as MessageKey;
    return { state: 'failed', session, earlierSessions, ...nothing(), message: translate(lang, code) };
  }

  const transform = row.transform;
  const plan = earlier.plan!;
  const zones = plan.exclusionZones ? [plan.exclusionZones.faz, plan.exclusionZones.onh] : [];
  const carried = carryEarlierPlan(transform, { spots: await spotsToCarry(ctx, earlier), zones });
  const todayUmPerPixel = today.plan!.scale!.umPerPixel;
  const spotSizeUm = plan.gridSettings?.spotSizeUm ?? null;
  return {
    state: 'registered',
    session,
    earlierSessions,
    registration: {
      method: row.method,
      transform,
      rotationDeg: rotationDegOf(transform),
      scale: scaleOf(transform),
      uncertaintyUm: Number(row.uncertainty_um ?? 0),
      vesselAgreement: row.vessel_agreement === null ? null : Number(row.vessel_agreement),
    },
    spots: carried.spots,
    exclusionZones: carried.zones.map((zone) => ({ ...zone, kind: zone.kind as 'FAZ' | 'ONH' })),
    spotDiameterPx: spotSizeUm === null ? null : spotSizeUm / todayUmPerPixel,
    message: null,
  };
}

/**
 * The earlier session's spots as they were lasered: those the laser reported fired, with the powers it
 * delivered, where they lay when it reported (issue 29); the planned ones when no treatment was reported.
 */
async function spotsToCarry(ctx: AppContext, earlier: TreatmentRow) {
  const planned = earlier.plan?.spots ?? [];
  const treated = await treatedTransferOf(ctx.db, earlier.id);
  if (!treated?.delivery) return planned;
  const where = new Map(planned.map((spot) => [spot.id, spot]));
  return treated.delivery.flatMap((spot) => {
    const x = spot.x ?? where.get(spot.id)?.x;
    const y = spot.y ?? where.get(spot.id)?.y;
    return x === undefined || y === undefined ? [] : [{ x, y, enabled: true, powerMw: spot.powerMw }];
  });
}

/** A session's fundus display image (JPEG), or null when it has none. */
async function fundusImage(ctx: AppContext, treatmentId: string): Promise<Buffer | null> {
  const displayPath = await fundusDisplayPath(ctx.db, treatmentId);
  return displayPath !== undefined ? await ctx.files.get(displayPath) : null;
}

async function register(ctx: AppContext, today: TreatmentRow, earlier: TreatmentRow | undefined): Promise<RegistrationOutcome> {
  const landmarks = earlier ? landmarksOfPair(today, earlier) : null;
  if (!earlier || !landmarks) return { state: 'failed', code: 'previous_treatment.unregistrable', landmarks };
  const [earlierImage, todayImage] = [await fundusImage(ctx, earlier.id), await fundusImage(ctx, today.id)];
  if (!earlierImage || !todayImage) return { state: 'failed', code: 'previous_treatment.no_image', landmarks };
  // Decoded and registered in a worker thread (about 3 s of work on a 1600 × 1200 pair).
  const handover = new Handover();
  const registration = await runTask(
    'registerEarlierImage',
    {
      earlier: { jpeg: handover.move(earlierImage), landmarks: landmarks.earlier, umPerPixel: earlier.plan!.scale!.umPerPixel },
      today: { jpeg: handover.move(todayImage), landmarks: landmarks.today, umPerPixel: today.plan!.scale!.umPerPixel },
    },
    handover,
  );
  if (!registration) return { state: 'failed', code: 'previous_treatment.unregistrable', landmarks };
  return { state: 'registered', ...registration, landmarks };
}

/** The `treatment.register` job: registers every pending earlier image of its session, then says so. */
export function previousTreatmentRegistration(ctx: AppContext): JobDefinition {
  const pendingOf = (job: JobRow) => registrations.pendingRegistrations(ctx.db, job.subject_id);
  const loadRow = (id: string) => treatmentById(ctx.db, id);

  /** Records each outcome (a pair that cannot be registered is an answer too: the job is done) and says so. */
  async function finish(claim: Claim, today: TreatmentRow | undefined, outcomes: [string, RegistrationOutcome][]) {
    await claim.finish('done', async (tx) => {
      for (const [earlierId, outcome] of today ? outcomes : []) {
        await registrations.recordRegistration(tx, today!.id, earlierId, outcome, ctx.clock.now());
      }
    });
    if (today) announce(ctx, [event('treatment.modified', today.clinic_id, { patientId: today.patient_id, treatmentId: today.id })]);
  }

  return {
    async run(job, claim) {
      const today = await loadRow(job.subject_id);
      const outcomes: [string, RegistrationOutcome][] = [];
      if (today) {
        for (const pending of await pendingOf(job)) outcomes.push([pending.earlier_treatment_id, await register(ctx, today, await loadRow(pending.earlier_treatment_id))]);
      }
      await finish(claim, today, outcomes);
    },
    async giveUp(job, claim) {
      const today = await loadRow(job.subject_id);
      // Failed for the landmarks of now: found again only when a physician moves one of them.
      const outcomes: [string, RegistrationOutcome][] = [];
      for (const pending of today ? await pendingOf(job) : []) {
        const earlier = await loadRow(pending.earlier_treatment_id);
        const landmarks = earlier ? landmarksOfPair(today!, earlier) : null;
        outcomes.push([pending.earlier_treatment_id, { state: 'failed', code: 'previous_treatment.unregistrable', landmarks }]);
      }
      await finish(claim, today, outcomes);
    },
  };
}
