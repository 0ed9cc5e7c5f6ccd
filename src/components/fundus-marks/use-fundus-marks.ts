// The marks of one image of a session and what is being done with them: the list and the clinic's labels
// (generated hooks), the tool and the drawing, the mark being labelled or edited, the one asked to be deleted.
// A host (the card's image dialog, the comparison, the wizard's viewer) holds one of these and places the
// toolbar, overlay, list and dialogs of this folder around its own image.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getListImageAnnotationsQueryKey,
  useCreateImageAnnotation,
  useDeleteImageAnnotation,
  useListAnnotationLabels,
  useListImageAnnotations,
  useUpdateImageAnnotation,
} from '@generated/hooks/annotations/annotations';
import type { Annotation } from '@generated/model/annotation';
import type { AnnotationLabel } from '@generated/model/annotationLabel';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { checkMarkShape, type ImageSize, type MarkShape } from '@/domain/annotations/mark-shape';
import type { MarkScale } from '@/domain/annotations/measure';
import { ApiError } from '@/lib/api-client';
import { drawStep, IDLE, type DrawEvent, type DrawState, type DrawTool } from './drawing';

export interface MarksImage extends ImageSize {
  readonly id: string;
}

export type MarkForm = { readonly mode: 'new'; readonly shape: MarkShape } | { readonly mode: 'edit'; readonly mark: Annotation };

export type FundusMarks = ReturnType<typeof useFundusMarks>;

/** A 409 `annotation.stale` (someone changed the mark since it was read). */
const isStale = (error: unknown) => error instanceof ApiError && error.status === 409;
/** A 423: the session was locked (an issue reported) since the marks were read. */
const isLocked = (error: unknown) => error instanceof ApiError && error.status === 423;

export function useFundusMarks({ treatmentId, image, readOnly = false }: { treatmentId: string; image: MarksImage | undefined; readOnly?: boolean }) {
  const { t, i18n } = useTranslation('marks');
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const queryClient = useQueryClient();
  const imageId = image?.id ?? '';
  const list = useListImageAnnotations(treatmentId, imageId, { query: { enabled: Boolean(image) } });
  const labelsQuery = useListAnnotationLabels({ query: { enabled: Boolean(image) } });
  const data = list.data?.data;
  const locked = data?.locked ?? false;
  const editable = !readOnly && Boolean(data) && !locked;

  const [visible, setVisible] = useState(true);
  const [tool, setToolState] = useState<DrawTool | null>(null);
  const [draw, setDraw] = useState<DrawState>(IDLE);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [form, setForm] = useState<MarkForm | null>(null);
  const [deleting, setDeleting] = useState<Annotation | null>(null);

  const reload = () => queryClient.invalidateQueries({ queryKey: getListImageAnnotationsQueryKey(treatmentId, imageId) });
  /** After a refused change: a stale mark or a lock reloads the marks (and the lock then shows). */
  const onRefused = (error: unknown) => {
    if (isStale(error) || isLocked(error)) {
      setForm(null);
      setDeleting(null);
      void reload();
      notify({ intent: 'danger', message: isStale(error) ? t('stale') : failureMessage(error) });
      return true;
    }
    return false;
  };
  const saved = (message: string | undefined, id?: string) => {
    setForm(null);
    if (id) setSelectedId(id);
    if (message) notify({ intent: 'success', message });
    return reload();
  };
  const create = useCreateImageAnnotation({ mutation: { onSuccess: (answer) => saved(answer.message, answer.data.id), onError: onRefused } });
  const update = useUpdateImageAnnotation({ mutation: { onSuccess: (answer) => saved(answer.message, answer.data.id), onError: onRefused } });
  const remove = useDeleteImageAnnotation({
    mutation: {
      onSuccess: (answer) => {
        setDeleting(null);
        setSelectedId(null);
        notify({ intent: 'success', message: answer.message });
        return reload();
      },
      onError: (error) => {
        if (!onRefused(error)) {
          setDeleting(null);
          notify({ intent: 'danger', message: failureMessage(error) });
        }
      },
    },
  });

  // A lock that arrives while drawing (realtime, or a refused save) ends the drawing.
  const activeTool = editable ? tool : null;
  useEffect(() => {
    if (!editable) {
      setDraw(IDLE);
      setForm((current) => (current?.mode === 'new' ? null : current));
    }
  }, [editable]);

  const setTool = (next: DrawTool | null) => {
    setToolState(next);
    setDraw(IDLE);
    if (next) setVisible(true);
  };

  /** Feeds the drawing an event; a finished shape is checked and, if the image can take it, goes to the form. */
  const dispatch = (event: DrawEvent, tolerancePx: number) => {
    if (!activeTool || !image) return;
    const next = drawStep(draw, event, { tool: activeTool, image, tolerancePx });
    if (next.phase !== 'done') return setDraw(next);
    setDraw(IDLE);
    const problem = checkMarkShape(next.shape, image);
    if (problem) notify({ intent: 'danger', message: t(`problems.${problem.code.replace('annotation.', '') as 'outside_image'}`) });
    else openForm({ mode: 'new', shape: next.shape });
  };

  const labels: AnnotationLabel[] = labelsQuery.data?.data ?? [];
  const marks: Annotation[] = data?.annotations ?? [];
  const scale: MarkScale | null = data?.scale ?? null;
  const language = i18n.language.startsWith('de') ? 'de' : 'en';
  /** A mark's label in the UI language now (the list's names are in the language it was read in); "No label" for a ruler without one. */
  const nameOf = (label: AnnotationLabel) => label.names[language];
  const labelOf = (mark: Annotation): string => {
    if (mark.labelId === null) return t('noLabel');
    const label = labels.find((candidate) => candidate.id === mark.labelId);
    return label ? nameOf(label) : (mark.label ?? t('noLabel'));
  };
  /** Opens the form; the last save's failure belongs to the form it happened in. */
  const openForm = (next: MarkForm) => {
    create.reset();
    update.reset();
    setForm(next);
  };

  return {
    treatmentId,
    image,
    list,
    labelsQuery,
    labels,
    marks,
    scale,
    locked,
    editable,
    visible,
    setVisible,
    tool: activeTool,
    setTool,
    draw,
    dispatch,
    selectedId,
    setSelectedId,
    form,
    openEdit: (mark: Annotation) => editable && openForm({ mode: 'edit', mark }),
    closeForm: () => setForm(null),
    deleting,
    askDelete: (mark: Annotation | null) => setDeleting(editable ? mark : null),
    create,
    update,
    remove,
    /** The number a mark goes by on the image and in the list (the order it was placed in). */
    labelOf,
    nameOf,
    numberOf: (mark: Annotation) => marks.indexOf(mark) + 1,
  };
}
