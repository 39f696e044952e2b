// The list envelope of every list endpoint: data, pageNumber, pageSize, totalRecords, totalPages.

export interface ListEnvelope<T> {
  data: T[];
  pageNumber: number;
  pageSize: number;
  totalRecords: number;
  totalPages: number;
}

export function presentPage<T>(data: T[], page: number, pageSize: number, totalRecords: number): ListEnvelope<T> {
  return { data, pageNumber: page, pageSize, totalRecords, totalPages: Math.ceil(totalRecords / pageSize) };
}

/**
 * presentPage's JSON as the text before and after the data array, for answers whose data is JSON
 * already; totalPages capped at `maxPages` where a feed caps its paging.
 */
export function pageEnvelopeJson(page: number, pageSize: number, totalRecords: number, maxPages = Infinity): { before: string; after: string } {
  // From presentPage itself, so both write the same keys in the same order; data comes first there.
  const { data: _data, ...rest } = presentPage([], page, pageSize, totalRecords);
  const tail = JSON.stringify({ ...rest, totalPages: Math.min(rest.totalPages, maxPages) });
  return { before: '{"data":', after: `,${tail.slice(1)}` };
}

/**
 * `before` + `data` + `after` as one Buffer of exactly their size: one allocation per answer. Large
 * answers are the API's main source of off-heap allocation, and V8 starts a full collection whenever
 * enough of it has piled up; each pause holds up every request in flight (docs/memory.md).
 */
export function jsonBody(before: string, data: Uint8Array, after: string, allocate: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size)): Buffer {
  const size = before.length + data.length + after.length; // before and after are ASCII
  const body = allocate(size);
  let at = body.write(before, 0, 'latin1');
  body.set(data, at);
  at += data.length;
  body.write(after, at, 'latin1');
  return body;
}
