// Form posts (application/x-www-form-urlencoded) read into a plain record, first value per name.
// Small limit: the largest form is the consent page's, a few hundred bytes.
import type { Context } from 'koa';
import { readBody } from '../middleware/requestBody.js';

export const FORM_LIMIT_BYTES = 16_384;

export type Form = Record<string, string>;

export class UnsupportedForm extends Error {}

export function parseForm(text: string): Form {
  const form = Object.create(null) as Form;
  for (const [name, value] of new URLSearchParams(text)) {
    if (!(name in form)) form[name] = value;
  }
  return form;
}

/** The posted form; an empty one for a body-less POST, UnsupportedForm for another content type. */
export async function readForm(ctx: Context, limit = FORM_LIMIT_BYTES): Promise<Form> {
  const type = ctx.get('content-type').split(';')[0]!.trim().toLowerCase();
  const length = ctx.get('content-length');
  if (type === '' && (length === '' || length === '0')) return parseForm('');
  if (type !== 'application/x-www-form-urlencoded') throw new UnsupportedForm(type);
  return parseForm(await readBody(ctx, limit));
}

/** A text field with surrounding white space removed, '' when missing; control characters rejected by callers. */
export function field(form: Form, name: string): string {
  return (form[name] ?? '').trim();
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL.test(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in dashboard paths are uuids; anything else is a 404 before a query could fail on it. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
