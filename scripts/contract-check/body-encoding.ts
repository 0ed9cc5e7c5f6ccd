// Request bodies in the media types the contract declares: JSON, URL-encoded forms and multipart forms
// (file fields, `format: binary`, become file parts; other values text parts).
import { objectShape } from './schema-values';
import type { Json } from './contract';

/** A 1 × 1 PNG: the smallest real image, for avatar fields. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export const BOUNDARY = 'contract-check-boundary-7MA4YWxkTrZu0gW';

export interface EncodedBody {
  contentType: string;
  body: Buffer;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function multipartBody(fields: [string, { text: string } | { file: Buffer; filename: string; type: string }][], boundary = BOUNDARY): Buffer {
  const parts: Buffer[] = [];
  for (const [name, field] of fields) {
    if ('text' in field) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${field.text}\r\n`, 'utf8'));
    } else {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${field.filename}"\r\nContent-Type: ${field.type}\r\n\r\n`, 'utf8'));
      parts.push(field.file, Buffer.from('\r\n'));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export function encodeBody(document: Json, mediaType: string, schema: Json, value: unknown, encoding?: Json): EncodedBody {
  if (mediaType.includes('json')) return { contentType: mediaType, body: Buffer.from(JSON.stringify(value) ?? '', 'utf8') };
  const entries = value && typeof value === 'object' ? Object.entries(value as Json).filter(([, v]) => v !== undefined && v !== null) : [];
  if (mediaType === 'application/x-www-form-urlencoded') {
    return { contentType: mediaType, body: Buffer.from(new URLSearchParams(entries.map(([k, v]) => [k, asText(v)])).toString()) };
  }
  if (mediaType.startsWith('multipart/')) {
    const { properties } = objectShape(document, schema);
    const fields = entries.map(([name, v]): Parameters<typeof multipartBody>[0][number] => {
      if (properties[name]?.format !== 'binary') return [name, { text: asText(v) }];
      const declared = String(((encoding?.[name] as Json | undefined)?.contentType as string | undefined) ?? 'application/octet-stream');
      const image = declared.includes('image/png');
      return [name, { file: image ? TINY_PNG : Buffer.from(asText(v)), filename: image ? 'avatar.png' : `${name}.bin`, type: image ? 'image/png' : declared.split(',')[0].trim() }];
    });
    return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: multipartBody(fields) };
  }
  return { contentType: mediaType, body: Buffer.from(asText(value), 'utf8') };
}
