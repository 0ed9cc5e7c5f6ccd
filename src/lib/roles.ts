import { Role } from '@generated/model/role';
import { paths } from '@/config/paths';

/** The signed-in areas (/admin, /physician) and the roles allowed in each. */
export type Area = 'admin' | 'physician';

// The login hints of the specification also spell roles in the singular (e.g. nurse).
const ALIASES: Readonly<Record<string, Role>> = {
  clinic_it_admin: Role.clinic_it_admins,
  clinic_physician: Role.clinic_physicians,
  nurse: Role.clinic_nurses,
};

const AREA_OF_ROLE: Partial<Record<Role, Area>> = {
  [Role.clinic_it_admins]: 'admin',
  [Role.clinic_physicians]: 'physician',
  [Role.clinic_nurses]: 'physician',
};

/** The canonical (plural) role for either spelling; undefined for no or an unknown role. */
export function canonicalRole(role: unknown): Role | undefined {
  if (typeof role !== 'string') return undefined;
  const value = role.trim();
  if (Object.hasOwn(Role, value)) return value as Role;
  return Object.hasOwn(ALIASES, value) ? ALIASES[value] : undefined;
}

/** The area a role works in; undefined for roles without screens (admins, service_engineers, …). */
export function areaOfRole(role: unknown): Area | undefined {
  const canonical = canonicalRole(role);
  return canonical && AREA_OF_ROLE[canonical];
}

const AREA_HOME: Record<Area, string> = {
  admin: paths.admin.root.getHref(),
  physician: paths.physician.list.getHref(),
};

/** Where `/` sends a signed-in user: the home of their area, or /forbidden for any other or no role. */
export function roleHome(role: unknown): string {
  const area = areaOfRole(role);
  return area ? AREA_HOME[area] : paths.errors.forbidden.getHref();
}
