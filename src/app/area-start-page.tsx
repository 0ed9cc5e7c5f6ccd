import { useTranslation } from 'react-i18next';
import { ProfileSummaryCard } from '@/components/profile-summary-card';
import type { Area } from '@/lib/roles';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { useRoleLabel } from '@/lib/use-role-label';

/** Start page of an area (/admin, /physician/list) until its lists arrive: who is signed in, where. */
export function AreaStartPage({ area }: { area: Area }) {
  const { t } = useTranslation();
  const profile = useSignedInProfile();
  const roleLabel = useRoleLabel(profile.role);

  return (
    <>
      <h1 className="mp-page-title">{t(`areas.${area}`)}</h1>
      <ProfileSummaryCard profile={profile} roleLabel={roleLabel} />
    </>
  );
}
