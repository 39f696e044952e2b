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
 * presentPage's JSON around `data`, the data array already as JSON (UTF-8 bytes or text); totalPages
 * capped at `maxPages` where a feed caps its paging.
 */
export function presentPageJson(data: Uint8Array | string, page: number, pageSize: number, totalRecords: number, maxPages = Infinity): Buffer {
  const totalPages = Math.min(Math.ceil(totalRecords / pageSize), maxPages);
  return Buffer.concat([
    Buffer.from('{"data":'),
    typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
    Buffer.from(`,"pageNumber":${page},"pageSize":${pageSize},"totalRecords":${totalRecords},"totalPages":${totalPages}}`),
  ]);
}
