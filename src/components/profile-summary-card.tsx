import { Card, Tag } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@generated/model/profile';

type Named = Pick<Profile, 'physicianName' | 'firstName' | 'lastName' | 'email'>;

/** Name a person is shown with: the physician name where set, else first and last name, else e-mail. */
export function displayName(profile: Named): string {
  return profile.physicianName?.trim() || `${profile.firstName} ${profile.lastName}`.trim() || profile.email;
}

/** The signed-in user's own profile at a glance; `roleLabel` is the translated role. */
export function ProfileSummaryCard({ profile, roleLabel }: { profile: Profile; roleLabel: string }) {
  const { t } = useTranslation();
  const titleId = useId();

  return (
    <section aria-labelledby={titleId}>
      <Card className="mp-profile-card">
        <h2 id={titleId} className="mp-card-title">
          {t('profileSummary.title')}
        </h2>
        <dl className="mp-definition-list">
          <dt>{t('profileSummary.name')}</dt>
          <dd>{displayName(profile)}</dd>
          <dt>{t('profileSummary.email')}</dt>
          <dd>{profile.email}</dd>
          <dt>{t('profileSummary.clinic')}</dt>
          <dd>{profile.clinicName}</dd>
          <dt>{t('profileSummary.role')}</dt>
          <dd>
            <Tag minimal>{roleLabel}</Tag>
          </dd>
        </dl>
      </Card>
    </section>
  );
}
