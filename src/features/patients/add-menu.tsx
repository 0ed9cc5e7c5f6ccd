import { Button } from '@blueprintjs/core';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nextMenuIndex } from '@/components/menu-keyboard';

export type AddChoice = 'patient' | 'newPatientFromNpt' | 'newSessionFromNpt';

const CHOICES: AddChoice[] = ['patient', 'newPatientFromNpt', 'newSessionFromNpt'];

/**
 * The ▾ beside "Add new patient": the ways of adding a patient or a session, the two from an NPT file among
 * them. A menu of our own under the button, not Blueprint's Popover/Menu: those split the chunks the
 * signed-in layout shares with every route (+2 kB on each, measured with scripts/bundle-report.mjs). The arrow
 * keys move between the items; Escape, Tab or a press outside closes it.
 */
export function AddMenu({ onChoose }: { onChoose: (choice: AddChoice) => void }) {
  const { t } = useTranslation('patientList');
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return undefined;
    items()[0]?.focus();
    const pressedOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', pressedOutside);
    return () => document.removeEventListener('pointerdown', pressedOutside);
  }, [open]);
  const label = t('actions.addMenu');
  const text = { patient: t('actions.addPatient'), newPatientFromNpt: t('actions.newPatientFromNpt'), newSessionFromNpt: t('actions.newSessionFromNpt') };
  return (
    <div ref={wrapper} className="mp-add-menu">
      <Button
        ref={toggle}
        intent="primary"
        icon="caret-down"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' || open) return;
          event.preventDefault();
          setOpen(true);
        }}
      />
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={label}
          className="mp-add-menu-items"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              setOpen(false);
              toggle.current?.focus();
              return;
            }
            if (event.key === 'Tab') {
              setOpen(false);
              return;
            }
            const all = items();
            const next = nextMenuIndex(event.key, all.indexOf(document.activeElement as HTMLElement), all.length);
            if (next === undefined) return;
            event.preventDefault();
            all[next]?.focus();
          }}
        >
          {CHOICES.map((choice) => (
            <Button
              key={choice}
              role="menuitem"
              tabIndex={-1}
              variant="minimal"
              icon={choice === 'patient' ? 'add' : 'upload'}
              alignText="start"
              onClick={() => {
                setOpen(false);
                onChoose(choice);
              }}
            >
              {text[choice]}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
