// Bytes handed between the server's thread and the pool's worker threads: an ArrayBuffer is moved (transferred)
// rather than copied when the view owns all of it. A view into a larger buffer (a Buffer from Node's pool of
// small allocations, a slice) is copied first: moving its buffer would take its neighbours along.

/** The buffers of one message, to be moved with it. After the message is sent they are unusable on this side. */
export class Handover {
  private readonly buffers = new Set<ArrayBuffer>();

  /** `view`, or a copy of it when it does not own its whole buffer; its buffer moves with the message. */
  move(view: Uint8Array): Uint8Array {
    const owns = view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
    const own = owns && !this.buffers.has(view.buffer as ArrayBuffer) ? view : new Uint8Array(view);
    this.buffers.add(own.buffer as ArrayBuffer);
    return own;
  }

  /** Adds a whole typed array's buffer (e.g. a Uint32Array made for the message). */
  moveArray<T extends { buffer: ArrayBufferLike }>(array: T): T {
    if (array.buffer instanceof ArrayBuffer) this.buffers.add(array.buffer);
    return array;
  }

  get list(): ArrayBuffer[] {
    return [...this.buffers];
  }
}

/** Bytes that crossed as a Uint8Array, as the Buffer the server's code works with (no copy). */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
