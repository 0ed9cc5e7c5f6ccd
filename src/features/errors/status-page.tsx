import { Card, Classes } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { MAIN_ID } from '@/components/skip-link';

export type StatusPageProps = {
  /** e.g. "Error 404": the HTTP-style code the specification puts on each error page. */
  code: string;
  title: string;
  description: string;
  /** The way out: a link or a button. */
  action: ReactNode;
};

/** Layout shared by the 401, 403, 404 and unexpected-error pages. */
export function StatusPage({ code, title, description, action }: StatusPageProps) {
  return (
    <main className="mp-page-center" id={MAIN_ID} tabIndex={-1}>
      <Card className="mp-status-card" elevation={1}>
        <p className="mp-status-code">{code}</p>
        <h1 className={Classes.HEADING}>{title}</h1>
        <p>{description}</p>
        {action}
      </Card>
    </main>
  );
}

/** Blueprint's primary button look for a router link. */
export const primaryLinkClassName = `${Classes.BUTTON} ${Classes.INTENT_PRIMARY} mp-link-button`;
