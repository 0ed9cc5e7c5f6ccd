import { Card } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';

/** One card of /profile-settings, a landmark named by its h2. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <Card className="mp-settings-card">
        <h2 id={titleId} className="mp-card-title">
          {title}
        </h2>
        {children}
      </Card>
    </section>
  );
}
