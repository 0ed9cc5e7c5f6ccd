// Handlers are keyed by the contract's operationId; each area of the API contributes an object of them.
import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { OperationId } from '../../generated/operation-ids';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler narrows its own request
export type Handler<R extends RouteGenericInterface = any> = (
  request: FastifyRequest<R>,
  reply: FastifyReply,
) => Promise<unknown>;

/** An area's handlers: operation ids of the contract only (a misspelt id fails the type check). */
export type Handlers = Partial<Record<OperationId, Handler>>;

/** Every operation's handler: one missing fails the type check instead of answering 501 at run time. */
export type AllHandlers = Record<OperationId, Handler>;

/** The success envelope of the contract. */
export const success = <T>(data: T, message?: string) => ({
  status: 'Success' as const,
  ...(message ? { message } : {}),
  data,
});

/** A success envelope without data (actions). */
export const done = (message: string) => ({ status: 'Success' as const, message });

/** A file sent as a download: never cached, named as given. */
export const sendAttachment = (reply: FastifyReply, file: { fileName: string; bytes: Buffer }) =>
  reply
    .header('Content-Type', 'application/octet-stream')
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .header('Cache-Control', 'no-store')
    .send(file.bytes);
