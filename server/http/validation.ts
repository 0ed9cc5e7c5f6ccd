// Request validation from the contract's schemas. Query strings, paths and headers arrive as text and
// are coerced to the schema's types; JSON bodies are not: a number where text belongs is an error, as is
// a field the contract does not know (nothing is silently dropped).
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

function ajv(options: Options): Ajv {
  // verbose: errors carry their schema, whose x-message-keys may name the message to answer. discriminator: a
  // oneOf with one (a mark's shape by `kind`) is checked against the branch its tag names only, so the field
  // errors are that branch's and not every other branch's.
  const instance = new Ajv({ strict: false, allErrors: true, verbose: true, removeAdditional: false, useDefaults: true, discriminator: true, ...options });
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
