import { Classes, FormGroup } from '@blueprintjs/core';
import { useId, type Ref } from 'react';
import { DateInput, useDateText, type DateTextOptions } from './date-input';

type DateFieldProps = Omit<DateTextOptions, 'onChange'> & {
  label: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * A labelled date of a form (react-hook-form's Controller): typed and shown in the UI language, kept as
 * YYYY-MM-DD, with its reason under it.
 */
export function DateField({ label, inputRef, onChange, ...options }: DateFieldProps) {
  const id = useId();
  const problemId = useId();
  const date = useDateText({ ...options, onChange });
  return (
    <FormGroup label={label} labelFor={id} intent={date.problem ? 'danger' : 'none'}>
      <DateInput date={date} id={id} inputRef={inputRef} large invalid={Boolean(date.problem)} describedBy={date.problem && problemId} />
      {date.problem && (
        <div id={problemId} className={Classes.FORM_HELPER_TEXT}>
          {date.problem}
        </div>
      )}
    </FormGroup>
  );
}
