// Labelling and measuring on fundus images (issue 17): the clinic's labels and the marks of each image of a
// session. Physicians and nurses of the session's clinic; each change is audited with the session and image
// ids (never the note or a label's name).
import type { AnnotationInput } from '../../generated/model/annotationInput';
import type { AnnotationLabelInput } from '../../generated/model/annotationLabelInput';
import type { AnnotationUpdate } from '../../generated/model/annotationUpdate';
import type { AppContext } from '../context';
import { type Handler, done, success } from '../http/handler';
import { translate } from '../i18n';
import { createLabel, createMark, deleteMark, listLabels, listMarks, updateMark } from '../services/annotations';
import { audit } from '../services/audit';

type OfImage = { Params: { id: string; imageId: string } };
type OfMark = { Params: { id: string; imageId: string; annotationId: string } };

type AnnotationOperation =
  | 'listAnnotationLabels'
  | 'createAnnotationLabel'
  | 'listImageAnnotations'
  | 'createImageAnnotation'
  | 'updateImageAnnotation'
  | 'deleteImageAnnotation';

export function annotationsHandlers(ctx: AppContext): Record<AnnotationOperation, Handler> {
  const actorOf = (request: { auth?: { userId: string; clinicId: string } }) => ({ userId: request.auth!.userId, clinicId: request.auth!.clinicId });

  const listAnnotationLabels: Handler = async (request) => success(await listLabels(ctx.db, request.auth!.clinicId, request.lang));

  const createAnnotationLabel: Handler<{ Body: AnnotationLabelInput }> = async (request, reply) => {
    const label = await createLabel(ctx, actorOf(request), request.body, request.lang);
    await audit(ctx.db, request, { action: 'annotation_label.created', outcome: 'success', targetType: 'annotation_label', targetId: label.id });
    return reply.code(201).send(success(label, translate(request.lang, 'annotation_label.created')));
  };

  const listImageAnnotations: Handler<OfImage> = async (request) => {
    const { id, imageId } = request.params;
    const list = await listMarks(ctx.db, actorOf(request), id, imageId, request.lang);
    await audit(ctx.db, request, { action: 'annotation.read', outcome: 'success', targetType: 'treatment', targetId: id, detail: { imageId } });
    return success(list);
  };

  const createImageAnnotation: Handler<OfImage & { Body: AnnotationInput }> = async (request, reply) => {
    const { id, imageId } = request.params;
    const { annotation, patientId } = await createMark(ctx, actorOf(request), id, imageId, request.body, request.lang);
    await audit(ctx.db, request, {
      action: 'annotation.created',
      outcome: 'success',
      targetType: 'annotation',
      targetId: annotation.id,
      detail: { patientId, treatmentId: id, imageId, kind: annotation.shape.kind },
    });
    return reply.code(201).send(success(annotation, translate(request.lang, 'annotation.created')));
  };

  const updateImageAnnotation: Handler<OfMark & { Body: AnnotationUpdate }> = async (request) => {
    const { id, imageId, annotationId } = request.params;
    const { annotation, patientId } = await updateMark(ctx, actorOf(request), id, imageId, annotationId, request.body, request.lang);
    await audit(ctx.db, request, {
      action: 'annotation.updated',
      outcome: 'success',
      targetType: 'annotation',
      targetId: annotation.id,
      detail: {
        patientId,
        treatmentId: id,
        imageId,
        version: annotation.version,
        changed: (['shape', 'labelId', 'note'] as const).filter((field) => request.body[field] !== undefined),
      },
    });
    return success(annotation, translate(request.lang, 'annotation.updated'));
  };

  const deleteImageAnnotation: Handler<OfMark> = async (request) => {
    const { id, imageId, annotationId } = request.params;
    const { patientId, kind } = await deleteMark(ctx, actorOf(request), id, imageId, annotationId);
    await audit(ctx.db, request, {
      action: 'annotation.deleted',
      outcome: 'success',
      targetType: 'annotation',
      targetId: annotationId,
      detail: { patientId, treatmentId: id, imageId, kind },
    });
    return done(translate(request.lang, 'annotation.deleted'));
  };

  return { listAnnotationLabels, createAnnotationLabel, listImageAnnotations, createImageAnnotation, updateImageAnnotation, deleteImageAnnotation };
}
