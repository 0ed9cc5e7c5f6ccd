import { Button, Callout, Classes, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getListAnnotationLabelsQueryKey, useCreateAnnotationLabel } from '@generated/hooks/annotations/annotations';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { Select } from '@/components/select';
import { LABEL_NAME_MAX_LENGTH, labelName, markNote, NOTE_MAX_LENGTH, type TextProblem } from '@/domain/annotations/labels';
import type { MarkShape } from '@/domain/annotations/mark-shape';
import { measureMark } from '@/domain/annotations/measure';
import { figuresLine, useMarkFigures } from './figures';
import type { FundusMarks, MarkForm } from './use-fundus-marks';

/** The select's value that opens the field for a new label (no label id looks like it). */
const ADD_LABEL = 'add-label';
/** The select's value of a ruler saved without a label (it only measures). */
const NO_LABEL = 'no-label';

function AddLabel({ onAdded }: { onAdded: (id: string) => void }) {
  const { t, i18n } = useTranslation('marks');
  const failureMessage = useFailureMessage();
  const queryClient = useQueryClient();
  const ids = { input: useId(), help: useId(), error: useId() };
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateAnnotationLabel({
    mutation: {
      onSuccess: async (answer) => {
        await queryClient.invalidateQueries({ queryKey: getListAnnotationLabelsQueryKey() });
        onAdded(answer.data.id);
      },
      onError: (error) => setProblem(failureMessage(error)),
    },
  });
  const messages: Record<TextProblem, string> = {
    required: t('form.nameRequired'),
    too_long: t('form.nameTooLong', { max: LABEL_NAME_MAX_LENGTH }),
    invalid_characters: t('form.nameInvalid'),
  };
  const add = () => {
    const checked = labelName(name);
    if (!checked.ok) return setProblem(messages[checked.problem]);
    // Named in the user's language; the server shows a name given in one language in both.
    create.mutate({ data: i18n.language.startsWith('de') ? { nameDe: checked.value } : { nameEn: checked.value } });
  };
  return (
    <FormGroup label={t('form.newLabel')} labelFor={ids.input} intent={problem ? 'danger' : 'none'} helperText={problem ? undefined : <span id={ids.help}>{t('form.newLabelHelp')}</span>}>
      <div className="mp-marks-add-label">
        <InputGroup
          id={ids.input}
          autoFocus
          value={name}
          maxLength={LABEL_NAME_MAX_LENGTH}
          intent={problem ? 'danger' : 'none'}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? ids.error : ids.help}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            // Enter adds the label instead of saving the mark without one.
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <Button icon="tag-add" loading={create.isPending} onClick={add}>
          {t('form.addNewLabel')}
        </Button>
      </div>
      {problem && (
        <div id={ids.error} className={Classes.FORM_HELPER_TEXT}>
          {problem}
        </div>
      )}
    </FormGroup>
  );
}

function MarkFormBody({ marks, form }: { marks: FundusMarks; form: MarkForm }) {
  const { t } = useTranslation('marks');
  const failureMessage = useFailureMessage();
  const figuresOf = useMarkFigures();
  const ids = { label: useId(), labelHelp: useId(), labelError: useId(), note: useId(), noteError: useId() };
  const editing = form.mode === 'edit' ? form.mark : null;
  const shape = (editing?.shape as MarkShape | undefined) ?? (form.mode === 'new' ? form.shape : null);
  // A ruler only measures: its label is optional, and a new one starts without. Every other mark needs one.
  const labelOptional = shape?.kind === 'line';
  const [labelId, setLabelId] = useState(editing ? (editing.labelId ?? NO_LABEL) : labelOptional ? NO_LABEL : '');
  const [note, setNote] = useState(editing?.note ?? '');
  const [missingLabel, setMissingLabel] = useState(false);
  const [noteProblem, setNoteProblem] = useState<string | null>(null);
  const mutation = editing ? marks.update : marks.create;
  const figures = editing ? figuresOf(editing.measurement) : shape ? figuresOf(measureMark(shape, marks.scale)) : null;
  const failure = mutation.error;

  const save = () => {
    const checkedNote = markNote(note);
    if (!checkedNote.ok) {
      return setNoteProblem(checkedNote.problem === 'too_long' ? t('form.noteTooLong', { max: NOTE_MAX_LENGTH }) : t('form.noteInvalid'));
    }
    if (!labelId || labelId === ADD_LABEL || (labelId === NO_LABEL && !labelOptional)) return setMissingLabel(true);
    const chosen = labelId === NO_LABEL ? null : labelId;
    const image = marks.image!;
    if (editing) {
      marks.update.mutate({ id: marks.treatmentId, imageId: image.id, annotationId: editing.id, data: { version: editing.version, labelId: chosen, note: checkedNote.value } });
    } else if (form.mode === 'new') {
      marks.create.mutate({ id: marks.treatmentId, imageId: image.id, data: { shape: form.shape, labelId: chosen, note: checkedNote.value } });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <DialogBody>
        {failure ? (
          <Callout intent="danger" role="alert" className="mp-dialog-callout">
            {failureMessage(failure)}
          </Callout>
        ) : null}
        <p className="mp-marks-form-kind">
          <strong>{t(`kinds.${shape?.kind ?? 'point'}`)}</strong>
          {figures && (
            <>
              {' · '}
              <span data-testid="mark-form-figures">{figuresLine(figures)}</span>
            </>
          )}
        </p>
        <FormGroup
          label={t(labelOptional ? 'form.labelOptional' : 'form.label')}
          labelFor={ids.label}
          intent={missingLabel ? 'danger' : 'none'}
          helperText={labelOptional && !missingLabel ? <span id={ids.labelHelp}>{t('form.labelOptionalHelp')}</span> : undefined}
        >
          <Select
            id={ids.label}
            fill
            autoFocus
            value={labelId}
            aria-invalid={missingLabel || undefined}
            aria-describedby={missingLabel ? ids.labelError : labelOptional ? ids.labelHelp : undefined}
            onChange={(event) => {
              setLabelId(event.currentTarget.value);
              setMissingLabel(false);
            }}
          >
            {labelOptional ? (
              <option value={NO_LABEL}>{t('noLabel')}</option>
            ) : (
              <option value="" disabled>
                {t('form.choose')}
              </option>
            )}
            {marks.labels.map((label) => (
              <option key={label.id} value={label.id}>
                {marks.nameOf(label)}
              </option>
            ))}
            <option value={ADD_LABEL}>{t('form.addLabel')}</option>
          </Select>
          {missingLabel && (
            <div id={ids.labelError} className={Classes.FORM_HELPER_TEXT}>
              {t('form.labelRequired')}
            </div>
          )}
        </FormGroup>
        {labelId === ADD_LABEL && <AddLabel onAdded={setLabelId} />}
        <FormGroup label={t('form.note')} labelFor={ids.note} intent={noteProblem ? 'danger' : 'none'}>
          <TextArea
            id={ids.note}
            fill
            rows={3}
            maxLength={NOTE_MAX_LENGTH}
            value={note}
            intent={noteProblem ? 'danger' : 'none'}
            aria-invalid={noteProblem ? true : undefined}
            aria-describedby={noteProblem ? ids.noteError : undefined}
            onChange={(event) => {
              setNote(event.currentTarget.value);
              setNoteProblem(null);
            }}
          />
          {noteProblem && (
            <div id={ids.noteError} className={Classes.FORM_HELPER_TEXT}>
              {noteProblem}
            </div>
          )}
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {editing && (
              <Button icon="trash" intent="danger" variant="outlined" onClick={() => marks.askDelete(editing)}>
                {t('delete')}
              </Button>
            )}
            <Button onClick={marks.closeForm}>{t('form.cancel')}</Button>
            <Button type="submit" intent="primary" loading={mutation.isPending}>
              {t('form.save')}
            </Button>
          </>
        }
      />
    </form>
  );
}

/** Labels a new mark, or relabels, re-notes or removes one. */
export function MarkFormDialog({ marks }: { marks: FundusMarks }) {
  const { t } = useTranslation('marks');
  const { form } = marks;
  // A new ruler is saved rather than labelled: its label is optional.
  const title =
    form?.mode === 'edit' ? t('form.editTitle', { number: marks.numberOf(form.mark) }) : t(form?.shape.kind === 'line' ? 'form.newRulerTitle' : 'form.newTitle');
  return (
    <Dialog isOpen={Boolean(form)} onClose={marks.closeForm} title={title} className="mp-dialog">
      {/* Keyed by the mark (and its version), so a reloaded mark starts the form afresh. */}
      {form && <MarkFormBody key={form.mode === 'edit' ? `${form.mark.id}:${form.mark.version}` : 'new'} marks={marks} form={form} />}
    </Dialog>
  );
}
