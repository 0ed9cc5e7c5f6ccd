import { Button, Callout } from '@blueprintjs/core';
import { Fragment, useId, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnrolmentCode } from '@generated/model/enrolmentCode';
import { formatDateTime } from '@/lib/format';

/** Selects the code's text, so that Ctrl+C copies it where the clipboard may not be written by script. */
function select(element: HTMLElement | null) {
  const selection = element && window.getSelection();
  if (!element || !selection) return;
  selection.removeAllRanges();
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.addRange(range);
}

/**
 * A device's one-time enrolment code as the server gave it, the only time it is shown: large, to be read out
 * or typed at the laser's computer; a copy button (without permission to write the clipboard, it selects the
 * code instead and says to press Ctrl+C); until when it is valid and the sync app's command that takes it.
 */
export function EnrolmentCodePanel({ enrolment, focusRef }: { enrolment: EnrolmentCode; focusRef?: Ref<HTMLButtonElement> }) {
  const { t, i18n } = useTranslation('devices');
  const codeRef = useRef<HTMLElement>(null);
  const ids = { code: useId(), expiry: useId() };
  const [copied, setCopied] = useState<'copied' | 'selected'>();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(enrolment.code);
      setCopied('copied');
    } catch {
      // No clipboard (a page not served over HTTPS) or no permission.
      select(codeRef.current);
      setCopied('selected');
    }
  };

  return (
    <div className="mp-enrolment">
      <div className="mp-enrolment-label">
        {t('code.label')}
      </div>
      <div className="mp-enrolment-code-row">
        <code ref={codeRef} id={ids.code} className="mp-enrolment-code">
          {enrolment.code}
        </code>
        <Button
          ref={focusRef}
          icon={copied === 'copied' ? 'tick-circle' : 'duplicate'}
          intent={copied === 'copied' ? 'success' : 'none'}
          aria-describedby={`${ids.code} ${ids.expiry}`}
          onClick={() => void copy()}
        >
          {t(copied === 'copied' ? 'code.copied' : 'code.copy')}
        </Button>
      </div>
      <p role="status" className="mp-enrolment-copied">
        {copied && t(copied === 'copied' ? 'code.copiedStatus' : 'code.selected')}
      </p>
      <p id={ids.expiry} className="mp-dialog-text mp-enrolment-expiry">
        {t('code.validUntil', { date: formatDateTime(enrolment.expiresAt, i18n.language) })}
      </p>
      <p className="mp-dialog-text">{t('code.howTo')}</p>
      <pre className="mp-enrolment-command">
        <code>
          {/* A narrow dialog breaks the line between the options, never inside one ("--enrol" at a hyphen). */}
          {['npm run device:sync --', `--server ${window.location.origin}`, `--enrol ${enrolment.code}`].map((part, index) => (
            <Fragment key={part}>
              {index > 0 && ' '}
              <span className="mp-nowrap">{part}</span>
            </Fragment>
          ))}
        </code>
      </pre>
      <Callout intent="warning" icon="warning-sign" className="mp-dialog-callout">
        {t('code.onlyNow')}
      </Callout>
    </div>
  );
}
