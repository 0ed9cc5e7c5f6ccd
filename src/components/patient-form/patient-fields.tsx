import { Classes, FormGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import { useId } from 'react';
import type { FieldErrors, UseFormRegister, UseFormWatch } from 'react-hook-form';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DateField } from '@/components/date-field';
import { TextField } from '@/components/form-fields';
import { Gender } from '@generated/model/gender';
import { PATIENT_LIMITS, type PatientFieldError } from './patient-form-limits';
import type { PatientFormInput } from './patient-form-schema';

type PatientFieldsProps = {
  register: UseFormRegister<PatientFormInput>;
  control: Control<PatientFormInput>;
  watch: UseFormWatch<PatientFormInput>;
  errors: FieldErrors<PatientFormInput>;
};

/** A field's error in the UI language: ours are PatientFieldError keys, the server's come translated. */
function useFieldError(errors: FieldErrors<PatientFormInput>) {
  const { t } = useTranslation('patients');
  const known: readonly string[] = ['required', 'invalidDate', 'birthdayFuture', 'birthdayTooEarly', 'tooLong'];
  return (field: keyof PatientFormInput): string | undefined => {
    const message = errors[field]?.message;
    if (!message) return undefined;
    return known.includes(message) ? t(`form.errors.${message as PatientFieldError}`) : message;
  };
}

/** Name, second name, birthday, gender and description of a patient: the add dialog and the card's edit. */
export function PatientFields({ register, control, watch, errors }: PatientFieldsProps) {
  const { t } = useTranslation('patients');
  const errorOf = useFieldError(errors);
  const ids = { gender: useId(), genderError: useId(), description: useId(), count: useId() };
  const genderError = errorOf('gender');
  const descriptionError = errorOf('description');
  const description = watch('description') ?? '';
  // Registered in the order shown: a refused submit focuses the first field with an error in this order.
  const name = register('name');
  const secondName = register('secondName');
  // The birthday's Controller registers only when it renders, after the description: its place in the order.
  register('birthday');
  const { ref: descriptionRef, ...descriptionField } = register('description');

  return (
    <>
      <div className="mp-form-row">
        <TextField
          label={t('field.name')}
          registration={name}
          error={errorOf('name')}
          autoComplete="off"
          maxLength={PATIENT_LIMITS.name}
        />
        <TextField
          label={t('field.secondName')}
          registration={secondName}
          error={errorOf('secondName')}
          autoComplete="off"
          maxLength={PATIENT_LIMITS.secondName}
        />
      </div>
      <Controller
        control={control}
        name="birthday"
        render={({ field }) => (
          <DateField
            label={t('field.birthday')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={errorOf('birthday')}
          />
        )}
      />
      <Controller
        control={control}
        name="gender"
        render={({ field }) => (
          <RadioGroup
            label={<span id={ids.gender}>{t('field.gender')}</span>}
            inline
            name={field.name}
            selectedValue={field.value}
            onChange={(event) => field.onChange(event.currentTarget.value)}
            className={`mp-radio-group${genderError ? ' mp-radio-error' : ''}`}
          >
            {Object.values(Gender).map((gender) => (
              <Radio
                key={gender}
                value={gender}
                label={t(`gender.${gender}`)}
                onBlur={field.onBlur}
                aria-describedby={genderError ? ids.genderError : undefined}
              />
            ))}
          </RadioGroup>
        )}
      />
      {genderError && (
        <div id={ids.genderError} className={`${Classes.FORM_HELPER_TEXT} mp-field-error`}>
          {genderError}
        </div>
      )}
      <FormGroup
        label={t('field.description')}
        labelFor={ids.description}
        labelInfo={t('form.optional')}
        intent={descriptionError ? 'danger' : 'none'}
        helperText={
          <span id={ids.count} aria-live="polite">
            {descriptionError ?? t('form.characters', { count: description.length, max: PATIENT_LIMITS.description })}
          </span>
        }
      >
        <TextArea
          {...descriptionField}
          inputRef={descriptionRef}
          id={ids.description}
          fill
          rows={3}
          maxLength={PATIENT_LIMITS.description}
          intent={descriptionError ? 'danger' : 'none'}
          aria-describedby={ids.count}
        />
      </FormGroup>
    </>
  );
}
