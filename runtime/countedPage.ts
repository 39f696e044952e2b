// A page whose total comes from `count(*) OVER () AS total_records` in the page's own query: one
// statement for rows and count. The window counts every match before LIMIT/OFFSET, but a page past the
// end has no row to carry it, and answering totalRecords 0 there would tell a client the list is empty
// (the contract: totalRecords counts all matches, not the rows on the page). So an empty page past the
// first reads the query's first row once more, for its count.

export interface CountedRow {
  totalRecords: number | string;
}

export async function countedPage<T extends CountedRow>(
  read: (limit: number, offset: number) => Promise<readonly T[]>,
  paging: { page: number; pageSize: number },
): Promise<{ rows: Array<Omit<T, 'totalRecords'>>; total: number }> {
  const offset = (paging.page - 1) * paging.pageSize;
  const rows = await read(paging.pageSize, offset);
  const counted = rows[0] ?? (offset > 0 ? (await read(1, 0))[0] : undefined);
  return {
    rows: rows.map(({ totalRecords: _total, ...rest }) => rest),
    total: counted ? Number(counted.totalRecords) : 0,
  };
}
