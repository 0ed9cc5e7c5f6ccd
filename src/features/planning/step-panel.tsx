import { Alert, Button, ButtonGroup, Callout } from '@blueprintjs/core';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';
import { canRedo, canUndo, commit, preview, redo, startHistory, undo, type History } from './history';
import type { StepFailure } from './use-step-save';
import type { ResetPart } from './wizard';

/** Keys typed into these stay theirs: Ctrl+Z in a number field undoes the typing, not the step. */
const typesText = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) && !target.classList.contains('mp-canvas-handle');

/** A step's draft with undo and redo (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y anywhere on the page but in a text field). */
export function useDraft<T>(initial: () => T) {
  const [history, setHistory] = useState<History<T>>(() => startHistory(initial()));
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || typesText(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) setHistory(undo);
      else if ((key === 'z' && event.shiftKey) || key === 'y') setHistory(redo);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return {
    draft: history.present,
    history,
    commit: (value: T) => setHistory((before) => commit(before, value)),
    preview: (value: T) => setHistory((before) => preview(before, value)),
    update: (change: (value: T) => T) => setHistory((before) => commit(before, change(before.present))),
    undo: () => setHistory(undo),
    redo: () => setHistory(redo),
    /** Starts again from `value` (the server's plan changed), with nothing to undo. */
    reset: (value: T) => setHistory(startHistory(value)),
  };
}

/** A navigation made by a save: the step's draft is the server's plan now, nothing to warn about. */
export const SAVED_STATE = { saved: true };

/**
 * Leaving a step with changes not confirmed (another step, another page, closing the tab) asks first: the
 * draft lives only here.
 */
function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation('planning');
  const titleId = useId();
  const textId = useId();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    const leaving = currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search;
    return dirty && leaving && (nextLocation.state as typeof SAVED_STATE | null)?.saved !== true;
  });
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [dirty]);
  return (
    <Alert
      isOpen={blocker.state === 'blocked'}
      intent="danger"
      cancelButtonText={t('unsaved.stay')}
      confirmButtonText={t('unsaved.leave')}
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
      // Named by its heading (Blueprint's Alert has no title of its own): a screen reader says what it asks.
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <h2 className="mp-alert-title" id={titleId}>
        {t('unsaved.title')}
      </h2>
      <p id={textId}>{t('unsaved.text')}</p>
    </Alert>
  );
}

interface StepPanelProps {
  title: string;
  intro: ReactNode;
  history?: History<unknown>;
  onUndo?(): void;
  onRedo?(): void;
  /** What confirming again throws away (going back). */
  resets: readonly ResetPart[];
  failure: StepFailure | null;
  children: ReactNode;
  actions: ReactNode;
}

/**
 * A step's heading takes the focus when the step appears and the focus is nowhere: the button that confirmed
 * the previous step is gone with it, and a keyboard or screen reader user would otherwise start again at the
 * top of the page.
 */
export function useStepHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
  }, []);
  return heading;
}

/** The side panel of a step: what it is for, its fields, undo and redo, what went wrong, and its confirmation. */
export function StepPanel({ title, intro, history, onUndo, onRedo, resets, failure, children, actions }: StepPanelProps) {
  const { t } = useTranslation('planning');
  const failureRef = useRef<HTMLDivElement>(null);
  const heading = useStepHeadingFocus();
  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure]);
  return (
    <section className="mp-step-panel" aria-labelledby="mp-step-title">
      <div className="mp-step-panel-head">
        <h2 id="mp-step-title" className="mp-step-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        {history && (
          <ButtonGroup>
            <Button icon="undo" variant="minimal" disabled={!canUndo(history)} onClick={onUndo} aria-label={t('undo')} title={t('undoKey')} />
            <Button icon="redo" variant="minimal" disabled={!canRedo(history)} onClick={onRedo} aria-label={t('redo')} title={t('redoKey')} />
          </ButtonGroup>
        )}
      </div>
      <div className="mp-step-intro">{intro}</div>
      {resets.length > 0 && (
        <Callout intent="warning" compact className="mp-step-callout">
          {t('resetWarning', { parts: resets.map((part) => t(`resetParts.${part}`)).join(t('listSeparator')) })}
        </Callout>
      )}
      {children}
      {failure && (
        <div role="alert" tabIndex={-1} ref={failureRef}>
          <Callout intent="danger" compact className="mp-step-callout">
            <p>{failure.message}</p>
            {failure.fields.length > 0 && (
              <ul>
                {failure.fields.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </Callout>
        </div>
      )}
      <div className="mp-step-actions">{actions}</div>
      <UnsavedChangesGuard dirty={history ? canUndo(history) : false} />
    </section>
  );
}
