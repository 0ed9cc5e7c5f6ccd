// The workspace on the mock (`npm run dev:mock`) is only as coherent as the contract's examples, and as
// mocks/mock-examples.ts, which asks Prism for the example that belongs to the id in the path. Every patient
// of the list example must have a card, sessions and, for each session, the session itself; what the list,
// the card, the session and the comparison say about one session must agree.
import { describe, expect, it } from 'vitest';
import { exampleFor, exampleRoutes, preferredExample, REALTIME_EXAMPLE } from '../../mocks/mock-examples';
import { loadContract, resolve } from './contract-loader';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- example values, checked field by field

const contract = loadContract();
const routes = exampleRoutes(contract as unknown as Record<string, unknown>);
const MARIA = 'a1c3e5f7-0b2d-4e6f-8a9b-1c2d3e4f5a61';

/** The named examples of an operation's success answer (200 unless told). */
function examples(path: string, method = 'get', status = '200'): Record<string, Json> {
  const operation = contract.paths[path][method] as Json;
  const content = resolve(contract, operation.responses[status]).content['application/json'];
  return Object.fromEntries(Object.entries(content.examples as Json).map(([name, example]) => [name, resolve(contract, example).value]));
}

/** The example Prism serves for a call through the dev mock: the chosen one, else the first. */
function served(path: string, url: string): Json {
  const all = examples(path);
  return all[exampleFor(routes, url) ?? Object.keys(all)[0]];
}

const SUMMARY_FIELDS = [
  'id', 'patientId', 'number', 'date', 'eye', 'description', 'planStatus', 'step', 'stepIndex', 'locked',
  'brightness', 'totalSpots', 'thumbnailUrl', 'error', 'modified', 'transfer', 'createdAt',
];
const LASER_FIELDS = ['spotSizeUm', 'spotSpacing', 'pulseDurationMs', 'laserMode', 'iolStatus', 'laserDose', 'dutyCyclePercent'];
const pick = (value: Json, fields: string[]) => Object.fromEntries(fields.map((field) => [field, value[field]]));

const patients: Json[] = examples('/patients').active.data;

describe('the patient list example, followed through the mock', () => {
  it.each(patients.map((patient) => [`${patient.name} ${patient.secondName}`, patient] as const))('%s', (_name, patient) => {
    const card = served('/patients/{id}', `/api/patients/${patient.id}`);
    expect(card.data).toEqual(patient);

    const sessions: Json[] = served('/patients/{id}/treatments', `/api/patients/${patient.id}/treatments?page=1&perPage=20`).data;
    expect(sessions.length).toBe(patient.treatmentsCount);
    expect(sessions.every((session) => session.patientId === patient.id)).toBe(true);
    // Newest first, as the card lists them; the newest is the one the list row describes.
    expect(sessions.map((session) => session.date)).toEqual(sessions.map((session) => session.date).sort().reverse());
    expect(sessions[0].date).toBe(patient.latestSessionDate);
    expect(sessions[0].planStatus).toBe(patient.planStatus);
    expect(Boolean(sessions[0].error)).toBe(patient.latestSessionFailed);

    for (const session of sessions) {
      const full = served('/treatments/{id}', `/api/treatments/${session.id}`).data;
      expect(pick(full, SUMMARY_FIELDS)).toEqual(session);
      // A processed session shows its fundus image; the thumbnail is that image's.
      if (full.images.length) expect(session.thumbnailUrl).toBe(full.images[0].thumbnailUrl);
      expect(full.issueReport !== null).toBe(full.locked);
    }
  });

  it('shows each kind of session the card knows: processing, in planning, available, Modified, Error Detected, locked', () => {
    const all = patients.flatMap(
      (patient) => served('/patients/{id}/treatments', `/api/patients/${patient.id}/treatments`).data as Json[],
    );
    const full = all.map((session) => served('/treatments/{id}', `/api/treatments/${session.id}`).data);
    expect(new Set(all.map((session) => session.planStatus))).toEqual(
      new Set(['processing', 'planning', 'plan_available', 'no_plan_available', 'issue_reported']),
    );
    expect(all.some((session) => session.modified)).toBe(true);
    expect(full.find((session) => session.error)?.error.message).toBeTruthy();
    expect(full.find((session) => session.locked)?.issueReport.reason).toBeTruthy();
    // The session's laser settings (spot size … laser power) on every session that was read from a file.
    for (const session of full) expect(Object.values(pick(session, LASER_FIELDS)).every((value) => value !== null)).toBe(true);
  });
});

describe('the comparison of Maria Schneider’s two sessions', () => {
  const [second, first] = served('/patients/{id}/treatments', `/api/patients/${MARIA}/treatments`).data as Json[];
  const comparison = served('/patients/{id}/comparison', `/api/patients/${MARIA}/comparison?first=${first.id}&second=${second.id}`).data;

  it('compares the sessions of her card, with their plans and laser settings', () => {
    for (const [side, session] of [['first', first], ['second', second]] as const) {
      const full = served('/treatments/{id}', `/api/treatments/${session.id}`).data;
      expect(comparison[side].treatment).toEqual(session);
      expect(comparison[side].plan).toEqual(full.plan);
      expect(comparison[side].laserSettings).toEqual(pick(full, LASER_FIELDS));
      expect(comparison[side].plan.spots.length).toBeGreaterThan(0);
    }
  });

  it('states the differences the sessions show (second minus first)', () => {
    const days = Math.round((Date.parse(second.date) - Date.parse(first.date)) / 86_400_000);
    expect(comparison.differences).toEqual({
      totalSpots: second.totalSpots - first.totalSpots,
      laserDose: comparison.second.laserSettings.laserDose - comparison.first.laserSettings.laserDose,
      brightness: Math.round((second.brightness - first.brightness) * 100) / 100,
      daysBetween: days,
    });
  });
});

describe('mocks/mock-examples.ts', () => {
  it('leaves calls without an id, with an unknown id, or of one example only to Prism', () => {
    expect(exampleFor(routes, '/api/patients?page=2')).toBeNull();
    expect(exampleFor(routes, '/api/patients/00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(exampleFor(routes, `/api/patients/${MARIA}/comparison?first=a&second=b`)).toBeNull();
  });

  it('answers a list call with the example whose summary names its query', () => {
    expect(exampleFor(routes, '/api/patients?page=1&perPage=20&status=deleting&sort=secondName')).toBe('deleting');
    expect(exampleFor(routes, '/api/users?page=1&perPage=20&role=clinic_it_admins')).toBe('itAdmins');
    expect(exampleFor(routes, '/api/users?page=1&status=deactivated')).toBe('deactivated');
    expect(exampleFor(routes, '/api/users?role=clinic_physicians&role=clinic_nurses')).toBeNull();
    expect(exampleFor(routes, '/api/clinic/devices?status=offline')).toBe('offline');
  });

  it('prefers the example that is the resource over one that merely names it', () => {
    // Session 1 of Maria Schneider is named in other examples too (her list, the comparison).
    expect(exampleFor(routes, '/api/treatments/1a7c3e95-2b4d-4f6a-8c0e-9d1f3a5b7c2e')).toBe('modified');
    expect(exampleFor(routes, `/api/patients/${MARIA}`)).toBe('active');
    expect(exampleFor(routes, `/api/patients/${MARIA}/treatments`)).toBe('twoSessions');
  });
});

describe('signing in on the mock as the profile example chosen (MACULA_MOCK_PROFILE)', () => {
  const signIns = examples('/sign-in', 'post');
  it.each(Object.entries(examples('/user/profile')))('%s: the sign-in answer carries the same profile', (name, profile) => {
    expect(preferredExample(routes, 'POST', '/api/sign-in', name)).toBe(name);
    expect(preferredExample(routes, 'GET', '/api/user/profile', name)).toBe(name);
    expect(signIns[name]?.data.profile).toEqual(profile.data);
  });
});

/** POST operations that create (201) a resource that has a read operation at `{path}/{id}`. */
const creations = Object.entries(contract.paths).flatMap(([path, item]) => {
  const operation = (item as Json).post as Json | undefined;
  return operation?.responses['201'] && (contract.paths[`${path}/{id}`] as Json | undefined)?.get ? [path] : [];
});

describe('what a create example answers can be read on the mock', () => {
  it('finds the create operations', () => {
    expect(creations).toEqual(expect.arrayContaining(['/patients', '/users']));
  });

  // The answers that are the created resource (`data.id`); an upload's answer (POST /treatments) names a session and a patient.
  const created = creations.flatMap((path) =>
    Object.entries(examples(path, 'post', '201')).flatMap(([name, value]) => (value.data.id ? [[`${path} ${name}`, path, value] as const] : [])),
  );
  it('finds the create examples', () => {
    expect(created.map(([name]) => name)).toEqual(expect.arrayContaining(['/patients added', '/users invited', '/users draft']));
  });

  it.each(created)(
    '%s: reading its id answers the same resource',
    (_name, path, created) => {
      const read = served(`${path}/{id}`, `/api${path}/${created.data.id}`);
      expect(read.data).toEqual(created.data);
    },
  );

  it('a patient just added has a card without sessions', () => {
    const added = examples('/patients', 'post', '201').added.data;
    const sessions = served('/patients/{id}/treatments', `/api/patients/${added.id}/treatments?page=1&perPage=20`);
    expect(added.treatmentsCount).toBe(0);
    expect(sessions.data).toEqual([]);
    expect(sessions.meta.total).toBe(0);
  });
});

describe('realtime on the mock', () => {
  it('is not configured, so the SPA does not try to connect', () => {
    expect(preferredExample(routes, 'GET', '/api/realtime/settings', 'physician')).toBe(REALTIME_EXAMPLE);
    expect(examples('/realtime/settings')[REALTIME_EXAMPLE].data.key).toBeNull();
  });
});
