import { Button, FormGroup, TextArea } from '@blueprintjs/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

type TextEditorProps = {
  label: string;
  initial: string;
  max: number;
  pending: boolean;
  /** The text trimmed; '' clears it. */
  onSave: (text: string) => void;
  onCancel: () => void;
};

/** A description edited in place: a counter against the limit, Save, and Cancel (or Escape). */
export function TextEditor({ label, initial, max, pending, onSave, onCancel }: TextEditorProps) {
  const { t } = useTranslation('patientCard');
  const ids = { field: useId(), count: useId() };
  const [text, setText] = useState(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave(text.trim());
      }}
    >
      <FormGroup
        label={label}
        labelFor={ids.field}
        helperText={
          <span id={ids.count} aria-live="polite">
            {t('description.characters', { count: text.length, max })}
          </span>
        }
      >
        <TextArea
          id={ids.field}
          fill
          autoFocus
          rows={4}
          value={text}
          maxLength={max}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onCancel();
          }}
          aria-describedby={ids.count}
        />
      </FormGroup>
      <div className="mp-inline-actions">
        <Button onClick={onCancel}>{t('cancel')}</Button>
        <Button type="submit" intent="primary" loading={pending}>
          {t('description.save')}
        </Button>
      </div>
    </form>
  );
}
