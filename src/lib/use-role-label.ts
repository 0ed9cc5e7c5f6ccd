import { useTranslation } from 'react-i18next';
import { canonicalRole } from './roles';

/** The translated label of a role in either spelling; "no role" for none or an unknown value. */
export function useRoleLabel(role: unknown): string {
  const { t } = useTranslation();
  const canonical = canonicalRole(role);
  return canonical ? t(`roles.${canonical}`) : t('roles.unknown');
}
