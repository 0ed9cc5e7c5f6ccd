import { useTranslation } from 'react-i18next';
import { useSignedInProfile } from '@/lib/signed-in-profile';
import { AvatarSection } from './avatar-section';
import { GeneralInfoSection } from './general-info-section';
import { PasswordSection } from './password-section';
import { SettingsSection } from './settings-section';
import { TwoFactorSection } from './two-factor-section';
import './profile-settings.css';

/**
 * /profile-settings, for any signed-in user of any role: general information, profile picture and
 * password, each saved on its own. The layout's profile follows the query cache, so a save shows at once.
 */
export function ProfileSettingsPage() {
  const { t } = useTranslation('profile');
  const profile = useSignedInProfile();

  return (
    <>
      <h1 className="mp-page-title">{t('title')}</h1>
      <div className="mp-settings-grid">
        <SettingsSection title={t('general.title')}>
          <GeneralInfoSection profile={profile} />
        </SettingsSection>
        <div className="mp-settings-column">
          <SettingsSection title={t('avatar.title')}>
            <AvatarSection profile={profile} />
          </SettingsSection>
          <SettingsSection title={t('password.title')}>
            <PasswordSection profile={profile} />
          </SettingsSection>
          <SettingsSection title={t('twoFactor.title')}>
            <TwoFactorSection profile={profile} />
          </SettingsSection>
        </div>
      </div>
    </>
  );
}
