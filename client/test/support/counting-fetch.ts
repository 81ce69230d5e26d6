import type { FetchLike } from "../../src/index.ts";

/** A fetch that records the method and path of every request before passing it on. */
export function countingFetch(inner: FetchLike) {
  const seen: string[] = [];
  const fetch: FetchLike = (input, init) => {
    const request = new Request(input, init);
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    return inner(request);
  };
  return { fetch, seen, count: (what: RegExp) => seen.filter((s) => what.test(s)).length };
}
