import { expect } from "vitest";

/**
 * A paged list read whole, then one item per page (`limit=1`), is the same list in the same order,
 * with no item repeated or skipped, and a page past the end is an empty array. `read` takes the
 * query string ("" or "?page=…&limit=…").
 */
export async function expectPagedInOrder(
  read: (query: string) => Promise<Array<{ id: string }>>,
  ids: string[],
) {
  expect((await read("")).map((item) => item.id)).toEqual(ids);
  const paged: string[] = [];
  for (let page = 1; page <= ids.length; page++) {
    const items = await read(`?page=${page}&limit=1`);
    expect(items.length).toBe(1);
    paged.push(items[0]?.id ?? "");
  }
  expect(paged).toEqual(ids);
  expect(await read(`?page=${ids.length + 1}&limit=1`)).toEqual([]);
}

/** `page` and `limit` values every paged list answers with a 400 naming the field. */
export const BAD_PAGE_QUERIES = [
  ["page=0", "query.page"],
  ["page=-1", "query.page"],
  ["page=1.5", "query.page"],
  ["page=abc", "query.page"],
  ["limit=0", "query.limit"],
  ["limit=101", "query.limit"],
  ["limit=ten", "query.limit"],
  ["limit=", "query.limit"],
] as const;
