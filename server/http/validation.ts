// Request validation from the contract's schemas. Query strings, paths and headers arrive as text and
// are coerced to the schema's types; JSON bodies are not: a number where text belongs is an error, as is
// a field the contract does not know (nothing is silently dropped).
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

function ajv(options: Options): Ajv {
  // verbose: errors carry their schema, whose x-message-keys may name the message to answer.
  const instance = new Ajv({ strict: false, allErrors: true, verbose: true, removeAdditional: false, useDefaults: true, ...options });
  addFormats(instance);
  instance.addFormat('binary', true);
  return instance;
}

export function installValidation(app: FastifyInstance): void {
  const coercing = ajv({ coerceTypes: 'array' });
  const exact = ajv({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? exact.compile(schema) : coercing.compile(schema),
  );
}
