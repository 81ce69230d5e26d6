// The request mix of the load benchmark: what a crowd of signed-in listeners does, by weight
// (percent of requests). A player fetches many segments per playlist, so segments lead; reads
// outnumber writes; follows and likes are a small share. Every client is one user, and sends its
// cookie with every request, as a browser does, except for the anonymous visits (someone opening
// a shared playlist link or searching before signing in).
import type { HlsFiles } from "./load-tracks.ts";
import { LANGUAGES } from "./seed-words.ts";

/** What the mix draws from: seeded rows and the READY tracks with real HLS files. */
export interface MixData {
  /** READY tracks (seeded) that listens are recorded for. */
  trackIds: string[];
  artistIds: string[];
  publicPlaylistIds: string[];
  /** The HLS files of each streamable track. */
  hls: HlsFiles[];
}

export interface MixRequest {
  method: "GET" | "POST" | "DELETE";
  path: string;
}

export interface Action {
  route: string;
  /** Sent without the cookie: a listener who is not signed in (answered from the edge cache). */
  anonymous?: boolean;
  weight: number;
  expect: readonly number[];
  request(data: MixData, random: () => number): MixRequest;
}

const pick = <T>(items: readonly T[], random: () => number): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
};

/** Search text as people type it: a word of the catalogue's languages, or its first letters. */
const WORDS = LANGUAGES.flatMap((language) => language.words);
const query = (random: () => number) => {
  const word = pick(WORDS, random);
  return random() < 0.25 && [...word].length > 3 ? [...word].slice(0, 3).join("") : word;
};

const get = (path: string): MixRequest => ({ method: "GET", path });
const OK = [200] as const;

export const MIX: readonly Action[] = [
  {
    route: "GET /playlists/:id",
    weight: 10,
    expect: OK,
    request: (d, r) => get(`/api/v1/playlists/${pick(d.publicPlaylistIds, r)}`),
  },
  {
    route: "GET /playlists/:id (anonymous)",
    anonymous: true,
    weight: 6,
    expect: OK,
    request: (d, r) => get(`/api/v1/playlists/${pick(d.publicPlaylistIds.slice(0, 200), r)}`),
  },
  {
    route: "GET /artists/:id (anonymous)",
    anonymous: true,
    weight: 3,
    expect: OK,
    request: (d, r) => get(`/api/v1/artists/${pick(d.artistIds.slice(0, 200), r)}`),
  },
  {
    route: "GET /search (anonymous)",
    anonymous: true,
    weight: 3,
    expect: OK,
    request: (_, r) => get(`/api/v1/search?q=${encodeURIComponent(query(r))}`),
  },
  { route: "GET /playlists/me", weight: 7, expect: OK, request: () => get("/api/v1/playlists/me") },
  { route: "GET /playlists", weight: 4, expect: OK, request: () => get("/api/v1/playlists") },
  {
    route: "POST /history/tracks/:id",
    weight: 10,
    expect: [201],
    request: (d, r) => ({ method: "POST", path: `/api/v1/history/tracks/${pick(d.trackIds, r)}` }),
  },
  { route: "GET /history", weight: 8, expect: OK, request: () => get("/api/v1/history") },
  {
    route: "GET /search",
    weight: 10,
    expect: OK,
    request: (_, r) => get(`/api/v1/search?q=${encodeURIComponent(query(r))}`),
  },
  {
    route: "GET hls master.m3u8",
    weight: 5,
    expect: OK,
    request: (d, r) => get(pick(d.hls, r).master),
  },
  {
    route: "GET hls :bitrate/index.m3u8",
    weight: 6,
    expect: OK,
    request: (d, r) => get(pick(pick(d.hls, r).indexes, r)),
  },
  {
    route: "GET hls :bitrate/init_0.mp4",
    weight: 2,
    expect: OK,
    request: (d, r) => get(pick(pick(d.hls, r).inits, r)),
  },
  {
    route: "GET hls :bitrate/segment_N.m4s",
    weight: 22,
    expect: OK,
    request: (d, r) => get(pick(pick(d.hls, r).segments, r)),
  },
  {
    route: "POST /artists/:id/follow",
    weight: 4,
    expect: OK,
    request: (d, r) => ({ method: "POST", path: `/api/v1/artists/${pick(d.artistIds, r)}/follow` }),
  },
  {
    route: "DELETE /artists/:id/follow",
    weight: 2,
    expect: OK,
    request: (d, r) => ({
      method: "DELETE",
      path: `/api/v1/artists/${pick(d.artistIds, r)}/follow`,
    }),
  },
  {
    route: "GET /artists/me/following",
    weight: 3,
    expect: OK,
    request: () => get("/api/v1/artists/me/following"),
  },
  {
    route: "POST /artists/:id/like",
    weight: 3,
    expect: OK,
    request: (d, r) => ({ method: "POST", path: `/api/v1/artists/${pick(d.artistIds, r)}/like` }),
  },
  {
    route: "POST /playlists/:id/like",
    weight: 4,
    expect: OK,
    request: (d, r) => ({
      method: "POST",
      path: `/api/v1/playlists/${pick(d.publicPlaylistIds, r)}/like`,
    }),
  },
];

/** Draws an action by weight. */
export function chooser(mix: readonly Action[]): (random: () => number) => Action {
  const total = mix.reduce((sum, action) => sum + action.weight, 0);
  return (random) => {
    let left = random() * total;
    for (const action of mix) {
      left -= action.weight;
      if (left < 0) return action;
    }
    return mix[mix.length - 1] as Action;
  };
}

/** A small seeded generator (mulberry32): each client draws the same sequence on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
