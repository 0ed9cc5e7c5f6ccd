// Labelling and measuring on fundus images (issue 17): the clinic's labels and the marks of each image of a
// session. Physicians and nurses of the session's clinic; each change is audited with the session and image
// ids (never the note or a label's name).
import type { AnnotationInput } from '../../generated/model/annotationInput';
import type { AnnotationLabelInput } from '../../generated/model/annotationLabelInput';
import type { AnnotationUpdate } from '../../generated/model/annotationUpdate';
import type { AppContext } from '../context';
import { type Handler, done, success, type Handlers } from '../http/handler';
import { translate } from '../i18n';
import { createLabel, createMark, deleteMark, listLabels, listMarks, updateMark } from '../services/annotations';
import { actorOf } from '../http/actor';

type OfImage = { Params: { id: string; imageId: string } };
type OfMark = { Params: { id: string; imageId: string; annotationId: string } };

export function annotationsHandlers(ctx: AppContext) {
  const listAnnotationLabels: Handler = async (request) => success(await listLabels(ctx.db, actorOf(request).clinicId, request.lang));

  const createAnnotationLabel: Handler<{ Body: AnnotationLabelInput }> = async (request, reply) => {
    const label = await createLabel(ctx, actorOf(request), request.body);
    return reply.code(201).send(success(label, translate(request.lang, 'annotation_label.created')));
  };

  const listImageAnnotations: Handler<OfImage> = async (request) => {
    const { id, imageId } = request.params;
    return success(await listMarks(ctx, actorOf(request), id, imageId));
  };

  const createImageAnnotation: Handler<OfImage & { Body: AnnotationInput }> = async (request, reply) => {
    const { id, imageId } = request.params;
    const annotation = await createMark(ctx, actorOf(request), id, imageId, request.body);
    return reply.code(201).send(success(annotation, translate(request.lang, 'annotation.created')));
  };

  const updateImageAnnotation: Handler<OfMark & { Body: AnnotationUpdate }> = async (request) => {
    const { id, imageId, annotationId } = request.params;
    const annotation = await updateMark(ctx, actorOf(request), id, imageId, annotationId, request.body);
    return success(annotation, translate(request.lang, 'annotation.updated'));
  };

  const deleteImageAnnotation: Handler<OfMark> = async (request) => {
    const { id, imageId, annotationId } = request.params;
    await deleteMark(ctx, actorOf(request), id, imageId, annotationId);
    return done(translate(request.lang, 'annotation.deleted'));
  };

  return { listAnnotationLabels, createAnnotationLabel, listImageAnnotations, createImageAnnotation, updateImageAnnotation, deleteImageAnnotation } satisfies Handlers;
}
