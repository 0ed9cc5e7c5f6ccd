// Judges one answer in the classes backend teams know from Schemathesis. Each case runs every check that
// applies to it and records a pass or a failure per class, so the report can say "0 of 2,000 failed" for
// each class and not only list failures.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { documentedResponse, type Contract, type Operation } from './contract';

export const CHECK_CLASSES = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'missing_auth',
  'ignored_auth',
  'response_headers_conformance',
  'unknown_resource',
  'ensure_resource_availability',
  'round_trip',
  'use_after_free',
] as const;
export type CheckClass = (typeof CHECK_CLASSES)[number];

/**
 * What the case expects beyond the contract: invalid data refused, no credentials 401, a role not listed 403,
 * an id that was never created 404 (any refusal where the operation does not list 404).
 */
export type Expectation = 'conforming' | 'rejected' | 'unauthenticated' | 'forbidden' | 'absent';

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  /** Response headers, names in lower case. */
  headers?: Record<string, string>;
}

export interface CheckResult {
  check: CheckClass;
  ok: boolean;
  message?: string;
}

export function createResponseValidator(contract: Contract, coerce = false): (pointer: string) => ValidateFunction | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, coerceTypes: coerce });
  addFormats(ajv);
  // OpenAPI's file formats are not JSON Schema formats; their bodies are not JSON anyway.
  ajv.addFormat('binary', true);
  ajv.addFormat('byte', true);
  ajv.addSchema(contract.document, 'contract');
  const cache = new Map<string, ValidateFunction | undefined>();
  return (pointer) => {
    if (!cache.has(pointer)) cache.set(pointer, ajv.getSchema(`contract#${pointer}`));
    return cache.get(pointer);
  };
}

/** 501 counts as "not implemented yet" only when the contract itself lists it for the operation. */
function serverError(operation: Operation, status: number): boolean {
  return status >= 500 && !(status === 501 && '501' in operation.responses);
}

export function judge(
  operation: Operation,
  expectation: Expectation,
  answer: Answer,
  validatorFor: (pointer: string) => ValidateFunction | undefined,
  /** Validators for header values (text, so with type coercion); without it header values are not checked. */
  headerValidatorFor?: (pointer: string) => ValidateFunction | undefined,
): CheckResult[] {
  const results: CheckResult[] = [];
  const { status } = answer;
  results.push(
    serverError(operation, status)
      ? { check: 'not_a_server_error', ok: false, message: `answered ${status}` }
      : { check: 'not_a_server_error', ok: true },
  );

  const documented = documentedResponse(operation, status);
  const listed = Object.keys(operation.responses).join(', ');
  results.push(
    documented
      ? { check: 'status_code_conformance', ok: true }
      : { check: 'status_code_conformance', ok: false, message: `answered ${status}; the contract lists ${listed}` },
  );

  if (documented && answer.body.length > 0) {
    const mediaType = answer.contentType.split(';')[0].trim().toLowerCase();
    const declared = Object.keys(documented);
    if (declared.length === 0) {
      results.push({ check: 'content_type_conformance', ok: false, message: `${status} has a body (${mediaType || 'no content type'}) where the contract declares none` });
    } else if (!declared.some((d) => d.toLowerCase() === mediaType)) {
      results.push({ check: 'content_type_conformance', ok: false, message: `${status} answered ${mediaType || 'no content type'}; the contract declares ${declared.join(', ')}` });
    } else {
      results.push({ check: 'content_type_conformance', ok: true });
      const pointer = documented[declared.find((d) => d.toLowerCase() === mediaType)!];
      if (pointer && /[/+]json$/.test(mediaType)) {
        let parsed: unknown;
        let parseError: string | null = null;
        try {
          parsed = JSON.parse(answer.body.toString('utf8'));
        } catch (error) {
          parseError = (error as Error).message;
        }
        const validate = validatorFor(pointer);
        if (parseError) results.push({ check: 'response_schema_conformance', ok: false, message: `${status} body is not JSON: ${parseError}` });
        else if (validate && !validate(parsed)) {
          const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
          results.push({ check: 'response_schema_conformance', ok: false, message: `${status} body: ${errors.join('; ')}` });
        } else results.push({ check: 'response_schema_conformance', ok: true });
      }
    }
  }

  // Headers the contract declares for this status: present (unless marked `required: false`) and, where the
  // header has a schema, valid.
  const declaredHeaders = operation.responseHeaders[String(status)] ?? [];
  if (declaredHeaders.length && answer.headers) {
    const problems: string[] = [];
    for (const header of declaredHeaders) {
      const value = answer.headers[header.name];
      if (value === undefined) {
        if (header.required) problems.push(`${status} lacks the declared header ${header.name}`);
        continue;
      }
      const validate = header.schemaPointer && headerValidatorFor ? headerValidatorFor(header.schemaPointer) : undefined;
      if (validate && !validate(value)) problems.push(`${status} header ${header.name}: ${JSON.stringify(value)} ${(validate.errors ?? [])[0]?.message ?? 'does not match its schema'}`);
    }
    results.push(problems.length ? { check: 'response_headers_conformance', ok: false, message: problems.join('; ') } : { check: 'response_headers_conformance', ok: true });
  }

  if (expectation === 'absent') {
    const expected = '404' in operation.responses ? 404 : null;
    const ok = expected ? status === expected : status >= 400 && status < 500;
    results.push(ok ? { check: 'unknown_resource', ok: true } : { check: 'unknown_resource', ok: false, message: `an id that was never created got ${status} (expected ${expected ?? 'a 4xx refusal'})` });
  } else if (expectation === 'rejected') {
    results.push(
      status >= 200 && status < 300
        ? { check: 'negative_data_rejection', ok: false, message: `invalid request accepted with ${status}` }
        : { check: 'negative_data_rejection', ok: true },
    );
  } else if (expectation === 'unauthenticated') {
    results.push(
      status === 401
        ? { check: 'missing_auth', ok: true }
        : { check: 'missing_auth', ok: false, message: `answered ${status} without valid credentials (expected 401)` },
    );
  } else if (expectation === 'forbidden') {
    results.push(
      status === 403
        ? { check: 'ignored_auth', ok: true }
        : { check: 'ignored_auth', ok: false, message: `a role not in x-roles got ${status} (expected 403)` },
    );
  }
  return results;
}
