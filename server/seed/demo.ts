// The demo clinic of `npm start` on an empty database (never with NODE_ENV=production): the three
// accounts of the README, staff in every status, a dozen patients across the lists, devices online and
// offline, and a few notifications. Written in one transaction: a demo is all there or not at all.
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import { buildSampleExam, SAMPLE_DEVICE } from './sample-exam';
import { GREEN_LASER_PROFILE, YELLOW_LASER_PROFILE } from './laser-profiles';
import { DEMO_SESSIONS } from './demo-sessions';
import type { AppContext } from '../context';
import type { Database } from '../db/tables';
import { runQueuedJob } from '../jobs/worker';
import { acceptExam } from '../services/exam-upload';
import { examProcessing } from '../services/exam-processing';
import { parameterSetPacking, signOff } from '../services/parameter-set';
import type { DeviceCaller } from '../services/device-sync';
import { acknowledgeTransfer, deviceParameterSetFile, reportDelivery } from '../services/transfers';
import { type Actor, systemOrigin } from '../actor';
import { saveBrightness, saveExclusionZones, saveMaculaGrid } from '../services/plan-steps';
import { CATEGORY_OF, type NotificationEvent } from '../services/notifications';
import { hashPassword } from '../security/password-hash';
import { hashToken, newToken } from '../security/tokens';

export interface DemoSummary {
  clinicName: string;
  password: string;
  accounts: { role: string; email: string }[];
}

export const DEMO_CLINIC = 'Augenklinik am See';
export const DEMO_PASSWORD = 'Demo-Clinic-2026!';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const row = await db.selectFrom('clinics').select('id').limit(1).executeTakeFirst();
  return !row;
}

interface StaffSeed {
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  physicianName?: string;
  role: 'clinic_it_admins' | 'clinic_physicians' | 'clinic_nurses';
  status: 'active' | 'pending' | 'invite_expired' | 'deactivated' | 'creation_in_progress' | 'archived';
  lang?: 'en' | 'de';
}

const STAFF: StaffSeed[] = [
  { key: 'admin', email: 'admin@clinic.example', firstName: 'Jonas', lastName: 'Weber', role: 'clinic_it_admins', status: 'active' },
  {
    key: 'physician',
    email: 'physician@clinic.example',
    firstName: 'Anna',
    lastName: 'Keller',
    physicianName: 'Dr. Anna Keller',
    role: 'clinic_physicians',
    status: 'active',
  },
  { key: 'nurse', email: 'nurse@clinic.example', firstName: 'Miriam', lastName: 'Vogel', role: 'clinic_nurses', status: 'active' },
  { key: 'admin2', email: 'it@clinic.example', firstName: 'Felix', lastName: 'Hartmann', role: 'clinic_it_admins', status: 'active', lang: 'de' },
  {
    key: 'brandt',
    email: 'paul.brandt@clinic.example',
    firstName: 'Paul',
    lastName: 'Brandt',
    physicianName: 'Dr. Paul Brandt',
    role: 'clinic_physicians',
    status: 'active',
    lang: 'de',
  },
  { key: 'jansen', email: 'lena.jansen@clinic.example', firstName: 'Lena', lastName: 'Jansen', role: 'clinic_nurses', status: 'active' },
  {
    key: 'schmitt',
    email: 'lea.schmitt@clinic.example',
    firstName: 'Lea',
    lastName: 'Schmitt',
    physicianName: 'Dr. Lea Schmitt',
    role: 'clinic_physicians',
    status: 'pending',
  },
  { key: 'richter', email: 'tobias.richter@clinic.example', firstName: 'Tobias', lastName: 'Richter', role: 'clinic_nurses', status: 'invite_expired' },
  { key: 'lang', email: 'katharina.lang@clinic.example', firstName: 'Katharina', lastName: 'Lang', role: 'clinic_nurses', status: 'deactivated' },
  {
    key: 'winter',
    email: 'max.winter@clinic.example',
    firstName: 'Max',
    lastName: 'Winter',
    physicianName: 'Dr. Max Winter',
    role: 'clinic_physicians',
    status: 'creation_in_progress',
  },
  { key: 'wolf', email: 'sandra.wolf@clinic.example', firstName: 'Sandra', lastName: 'Wolf', role: 'clinic_nurses', status: 'archived' },
];

interface PatientSeed {
  name: string;
  secondName: string;
  birthday: string;
  gender: 'male' | 'female' | 'other';
  description?: string;
  deviceId?: string;
  status?: 'active' | 'deleting' | 'archived';
  /** Days before now the record was created. */
  createdDaysAgo: number;
}

const PATIENTS: PatientSeed[] = [
  { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female', description: 'Diabetic macular oedema, right eye. Follow-up every 3 months.', deviceId: 'NPT-0000184', createdDaysAgo: 101 },
  { name: 'Thomas', secondName: 'Becker', birthday: '1958-09-02', gender: 'male', description: 'Central serous chorioretinopathy, right eye.', deviceId: 'NPT-0000231', createdDaysAgo: 2 },
  { name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', gender: 'female', deviceId: 'NPT-0000247', createdDaysAgo: 5 },
  { name: 'Klaus', secondName: 'Wagner', birthday: '1947-06-30', gender: 'male', description: 'Diabetic macular oedema, left eye. Cataract surgery 2024.', deviceId: 'NPT-0000219', createdDaysAgo: 8 },
  { name: 'Sabine', secondName: 'Hoffmann', birthday: '1969-12-05', gender: 'female', deviceId: 'NPT-0000238', createdDaysAgo: 3 },
  { name: 'Peter', secondName: 'Neumann', birthday: '1961-07-08', gender: 'male', description: 'Referred by Dr. Lang for assessment for macular laser treatment.', createdDaysAgo: 1 },
  { name: 'Hannah', secondName: 'Krüger', birthday: '1972-05-19', gender: 'female', createdDaysAgo: 12 },
  { name: 'Günter', secondName: 'Schäfer', birthday: '1944-11-27', gender: 'male', description: 'Branch retinal vein occlusion, right eye.', deviceId: 'NPT-0000163', createdDaysAgo: 40 },
  { name: 'Ursula', secondName: 'Meyer-Lindner', birthday: '1955-08-14', gender: 'female', createdDaysAgo: 21 },
  { name: 'Alex', secondName: 'Zimmermann', birthday: '1980-02-29', gender: 'other', createdDaysAgo: 15 },
  { name: 'Jürgen', secondName: 'Schulz', birthday: '1955-03-08', gender: 'male', status: 'deleting', createdDaysAgo: 1 },
  {
    name: 'Ingrid',
    secondName: 'Koch',
    birthday: '1939-02-11',
    gender: 'female',
    description: 'Treatment completed 2025; moved to another clinic.',
    deviceId: 'NPT-0000052',
    status: 'archived',
    createdDaysAgo: 900,
  },
];

const DELETION_REASON = 'Duplicate record created by mistake';

/** Demo sessions: exams generated for these patients (by name), captured so many days ago. */

/** Seeds the demo clinic; returns what `npm start` prints. */
/**
 * A demo session as a physician plans it on the day of the exam: processed at once, zones, grid and brightness
 * confirmed as proposed, signed off with the demo password, the parameter set packed — through the same services
 * and jobs as in the clinic.
 */
async function signedOffOnTheDay(now: AppContext, day: Date, physician: Actor, treatmentId: string): Promise<void> {
  // What the services record happens on that day; the jobs are claimed and held by today's clock (a lease dated
  // back then would have lapsed at once for the worker).
  const ctx = { ...now, clock: { now: () => day } };
  await runQueuedJob(now, 'treatment.process', treatmentId, examProcessing(ctx));
  const row = () => ctx.db.selectFrom('treatments').selectAll().where('id', '=', treatmentId).executeTakeFirstOrThrow();
  const zones = (await row()).plan!.exclusionZones!;
  const shape = (zone: typeof zones.faz) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  await saveExclusionZones(ctx, physician, treatmentId, { revision: (await row()).plan_revision, faz: shape(zones.faz), onh: shape(zones.onh) });
  const proposed = await row();
  await saveMaculaGrid(ctx, physician, treatmentId, { revision: proposed.plan_revision, settings: proposed.plan!.gridSettings! });
  await saveBrightness(ctx, physician, treatmentId, { revision: (await row()).plan_revision });
  await signOff(ctx, physician, treatmentId, { revision: (await row()).plan_revision, password: DEMO_PASSWORD, confirm: true }, () => {});
  await runQueuedJob(now, 'treatment.pack', treatmentId, parameterSetPacking(ctx));
  await treatedByTheLaser(now, new Date(day.getTime() + 40 * 60_000), treatmentId);
}

/**
 * The laser's sync app on the day: the parameter set queued for it at packing is fetched, confirmed and
 * reported treated with every planned spot at its planned power — through the same services as its calls.
 */
async function treatedByTheLaser(now: AppContext, day: Date, treatmentId: string): Promise<void> {
  const ctx = { ...now, clock: { now: () => day } };
  const transfer = await ctx.db
    .selectFrom('parameter_set_transfers as t')
    .innerJoin('devices as d', 'd.id', 't.device_id')
    .select(['t.id', 't.sha256', 'd.id as device', 'd.clinic_id', 'd.device_id', 'd.credential_hash'])
    .where('t.treatment_id', '=', treatmentId)
    .where('t.status', '=', 'queued')
    .executeTakeFirstOrThrow();
  const laser: DeviceCaller = { ...systemOrigin, id: transfer.device, clinicId: transfer.clinic_id, deviceId: transfer.device_id, credentialHash: transfer.credential_hash! };
  await deviceParameterSetFile(ctx, laser, transfer.id);
  await acknowledgeTransfer(ctx, laser, transfer.id, transfer.sha256);
  const plan = (await ctx.db.selectFrom('treatments').select('plan').where('id', '=', treatmentId).executeTakeFirstOrThrow()).plan!;
  const spots = plan.spots.filter((spot) => spot.enabled).map((spot) => ({ id: spot.id, powerMw: spot.powerMw ?? 0 }));
  await reportDelivery(ctx, laser, transfer.id, { outcome: 'treated', at: day.toISOString(), spots });
}

export async function seedDemo(ctx: AppContext): Promise<DemoSummary> {
  // argon2 is slow on purpose: one hash serves every demo account.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = ctx.clock.now();
  const ago = (ms: number) => new Date(now.getTime() - ms);

  const seeded = await ctx.db.transaction().execute(async (tx) => {
    const clinic = await tx
      .insertInto('clinics')
      .values({ name: DEMO_CLINIC, created_at: ago(400 * DAY) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const clinicId = clinic.id;
    await tx
      .insertInto('security_settings')
      .values({
        clinic_id: clinicId,
        password_strength: 'standard',
        password_renewal_interval: null,
        password_renewal_period: 'months',
        user_scope: 'all',
        logout_time_interval: 30,
        logout_time_period: 'minutes',
        updated_at: now,
      })
      .execute();

    const ids: Record<string, string> = {};
    for (const [index, staff] of STAFF.entries()) {
      const signedUp = ['active', 'deactivated', 'archived'].includes(staff.status);
      const createdAt = ago((300 - index * 20) * DAY);
      const row = await tx
        .insertInto('users')
        .values({
          clinic_id: clinicId,
          email: staff.email,
          first_name: staff.firstName,
          last_name: staff.lastName,
          physician_name: staff.physicianName ?? null,
          role: staff.role,
          status: staff.status,
          invite_status: signedUp ? 'accepted' : staff.status,
          previous_status: staff.status === 'archived' ? 'active' : null,
          password_hash: signedUp ? passwordHash : null,
          password_changed_at: signedUp ? createdAt : null,
          lang: staff.lang ?? 'en',
          avatar_path: null,
          avatar_type: null,
          eula_accepted_at: signedUp ? createdAt : null,
          eula_version: signedUp ? '2026-01' : null,
          privacy_accepted_at: signedUp ? createdAt : null,
          privacy_version: signedUp ? '2026-01' : null,
          last_sign_in_at: staff.status === 'active' ? ago((index + 1) * HOUR) : null,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[staff.key] = row.id;
      // Invites: a valid one for the invited user, a lapsed one for the expired invite. The links were
      // never sent, so nobody knows the tokens; the admin resends them from the user list.
      if (staff.status === 'pending' || staff.status === 'invite_expired') {
        const sentAt = staff.status === 'pending' ? ago(2 * DAY) : ago(12 * DAY);
        await tx
          .insertInto('user_tokens')
          .values({
            user_id: row.id,
            kind: 'invite',
            token_hash: hashToken(newToken()),
            created_at: sentAt,
            expires_at: new Date(sentAt.getTime() + 7 * DAY),
          })
          .execute();
      }
    }

    const patientIds: Record<string, string> = {};
    for (const patient of PATIENTS) {
      const createdAt = ago(patient.createdDaysAgo * DAY + 3 * HOUR);
      const deleting = patient.status === 'deleting';
      const row = await tx
        .insertInto('patients')
        .values({
          clinic_id: clinicId,
          name: patient.name,
          second_name: patient.secondName,
          birthday: patient.birthday,
          gender: patient.gender,
          description: patient.description ?? null,
          status: patient.status ?? 'active',
          device_patient_id: patient.deviceId ?? null,
          deletion_reason: deleting ? DELETION_REASON : null,
          deletion_requested_by: deleting ? ids.nurse : null,
          deletion_requested_at: deleting ? ago(20 * HOUR) : null,
          created_by: ids.physician,
          created_at: createdAt,
          updated_at: deleting ? ago(20 * HOUR) : createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      patientIds[`${patient.name} ${patient.secondName}`] = row.id;
    }

    // The demo's lasers were enrolled long ago; no sync app of theirs runs, so they are Offline, with the
    // "last seen" of their last heartbeat (a sync app enrolled from Administration → Devices comes Online).
    const enrolledLongAgo = (at: Date) => ({
      sync_app_status: 'CONNECTION_FAILED',
      credential_hash: hashToken(newToken()),
      enrolled_at: at,
      sync_app_version: '1.0.0',
    });
    await tx
      .insertInto('devices')
      .values([
        {
          clinic_id: clinicId,
          // The laser the demo's exams come from.
          device_id: SAMPLE_DEVICE.deviceId,
          optical_head_id: SAMPLE_DEVICE.opticalHeadId,
          camera: 'Fundus camera FC-5 (45°)',
          description: 'Laser room 1',
          ...enrolledLongAgo(ago(380 * DAY)),
          last_seen_at: ago(MINUTE),
          laser_profile: JSON.stringify(YELLOW_LASER_PROFILE),
          created_at: ago(380 * DAY),
        },
        {
          clinic_id: clinicId,
          device_id: 'NAV-2025-0932',
          optical_head_id: 'OH-8124',
          camera: 'Fundus camera FC-5 (45°)',
          description: 'Laser room 2',
          ...enrolledLongAgo(ago(120 * DAY)),
          last_seen_at: ago(MINUTE),
          laser_profile: JSON.stringify(GREEN_LASER_PROFILE),
          created_at: ago(120 * DAY),
        },
        {
          clinic_id: clinicId,
          device_id: 'NAV-2021-0088',
          optical_head_id: 'OH-3305',
          camera: 'Fundus camera FC-3 (30°)',
          description: 'Outpatient surgery, building B',
          ...enrolledLongAgo(ago(390 * DAY)),
          last_seen_at: ago(DAY),
          created_at: ago(390 * DAY),
        },
      ])
      .execute();

    const note = (userKey: string, event: NotificationEvent, params: Record<string, string>, link: string | null, at: Date, read: boolean) => ({
      clinic_id: clinicId,
      user_id: ids[userKey],
      category: CATEGORY_OF[event],
      event,
      params: JSON.stringify(params),
      link,
      read_at: read ? new Date(at.getTime() + HOUR) : null,
      created_at: at,
    });
    const schulz = patientIds['Jürgen Schulz'];
    const schneider = patientIds['Maria Schneider'];
    const deletionParams = { requester: 'Miriam Vogel', patient: 'Jürgen Schulz', reason: DELETION_REASON, patientId: schulz };
    await tx
      .insertInto('notifications')
      .values([
        note('admin', 'deletion_requested', deletionParams, '/admin/patient-list/deleting', ago(20 * HOUR), false),
        note('admin2', 'deletion_requested', deletionParams, '/admin/patient-list/deleting', ago(20 * HOUR), false),
        note('admin', 'invite_accepted', { name: 'Lena Jansen' }, '/admin/physicians', ago(6 * DAY), true),
        note('admin', 'invite_accepted', { name: 'Dr. Paul Brandt' }, '/admin/physicians', ago(40 * DAY), true),
        note(
          'physician',
          'patient_restored',
          { patient: 'Maria Schneider', actor: 'Jonas Weber', patientId: schneider },
          `/physician/patient-card?patientId=${schneider}`,
          ago(3 * HOUR),
          false,
        ),
        note('physician', 'patient_erased', { actor: 'Jonas Weber' }, null, ago(9 * DAY), true),
      ])
      .execute();
    return { clinicId, ids, patientIds };
  });

  // Sessions from generated exam files, uploaded as the clinic would; the worker processes them after start,
  // except a session signed off on its day: processed, planned as proposed, signed off and packed here, on that day.
  for (const [index, session] of DEMO_SESSIONS.entries()) {
    const patient = PATIENTS.find((p) => `${p.name} ${p.secondName}` === session.patient)!;
    const exam = await buildSampleExam({
      name: patient.name,
      secondName: patient.secondName,
      birthday: patient.birthday,
      gender: patient.gender,
      deviceSideId: patient.deviceId ?? `NPT-${String(9000 + index).padStart(7, '0')}`,
      eye: session.eye,
      seed: 100 + index,
      capturedAt: ago(session.daysAgo * DAY).toISOString(),
      ...(session.sameEyeAs && { sameEyeAs: { seed: 100 + session.sameEyeAs.session, pose: session.sameEyeAs.pose } }),
    });
    const staged = await ctx.files.stage(Readable.from([Buffer.from(exam.bytes)]), 'demo.npt', () => false);
    const uploader = session.by === 'nurse' ? seeded.ids.nurse : seeded.ids.physician;
    const role = session.by === 'nurse' ? 'clinic_nurses' : 'clinic_physicians';
    const accepted = await acceptExam(ctx, { ...systemOrigin, userId: uploader, clinicId: seeded.clinicId, role }, staged, {
      patientId: seeded.patientIds[session.patient],
    });
    if (session.signedOff) {
      const physician: Actor = { ...systemOrigin, userId: seeded.ids.physician, clinicId: seeded.clinicId, role: 'clinic_physicians' };
      await signedOffOnTheDay(ctx, new Date(ago(session.daysAgo * DAY).getTime() + HOUR), physician, accepted.treatment.id);
    }
  }
  // Each exam was uploaded the day it was taken (a clinic uploads after the exam), not when the seed ran.
  await sql`update treatments set created_at = date where clinic_id = ${seeded.clinicId}`.execute(ctx.db);

  const account = (key: string) => {
    const staff = STAFF.find((s) => s.key === key)!;
    return { role: staff.role, email: staff.email };
  };
  return {
    clinicName: DEMO_CLINIC,
    password: DEMO_PASSWORD,
    accounts: [account('admin'), account('physician'), account('nurse'), account('admin2')],
  };
}
