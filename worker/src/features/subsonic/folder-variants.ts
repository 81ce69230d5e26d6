import { albumListMethods } from "./album-lists.ts";
import { infoMethods } from "./info.ts";
import { listMethods } from "./lists.ts";
import type { AnyMethod } from "./method.ts";
import type { SubsonicNode } from "./respond.ts";
import { searchMethods } from "./search.ts";
import { similarMethods } from "./similar.ts";

/**
 * The protocol's older, folder-shaped forms of the ID3 methods, which apps call unless a listener
 * turns their "browse by tags" setting on (DSub and Ultrasonic by default): the same arguments and
 * reads as the ID3 method, its answer re-shaped, so both forms always agree. An album becomes a
 * directory entry (a Child with `isDir`), an artist the plain Artist.
 */
function folderForm(of: AnyMethod, reshape: (answer: SubsonicNode) => SubsonicNode): AnyMethod {
  return {
    ...of,
    answer: async (input) => {
      const answer = await of.answer(input);
      return answer instanceof Response ? answer : reshape(answer);
    },
  };
}

type Node = SubsonicNode;
const nodes = (value: unknown) => (value ?? []) as Node[];

/** An album (AlbumID3) as the directory entry that holds its songs. */
export function albumEntry(album: Node): Node {
  return {
    id: album.id,
    parent: album.artistId,
    isDir: true,
    title: album.name,
    album: album.name,
    artist: album.artist,
    artistId: album.artistId,
    coverArt: album.coverArt,
    duration: album.duration,
    year: album.year,
    created: album.created,
    starred: album.starred,
  };
}

/** An artist (ArtistID3) as the plain Artist. */
const plainArtist = (artist: Node): Node => ({
  id: artist.id,
  name: artist.name,
  starred: artist.starred,
});

const inside = (answer: Node, key: string) => (answer[key] ?? {}) as Node;

/** An answer of artists, albums and songs (`from`) in its folder shape (`to`). */
const threeLists = (from: string, to: string) => (answer: Node) => {
  const { artist, album, song } = inside(answer, from);
  return {
    [to]: {
      artist: nodes(artist).map(plainArtist),
      album: nodes(album).map(albumEntry),
      song: nodes(song),
    },
  };
};

export const folderMethods = {
  getAlbumList: folderForm(albumListMethods.getAlbumList2, (answer) => ({
    albumList: { album: nodes(inside(answer, "albumList2").album).map(albumEntry) },
  })),
  getStarred: folderForm(listMethods.getStarred2, threeLists("starred2", "starred")),
  search2: folderForm(searchMethods.search3, threeLists("searchResult3", "searchResult2")),
  getArtistInfo: folderForm(infoMethods.getArtistInfo2, (answer) => {
    const info = inside(answer, "artistInfo2");
    return {
      artistInfo: { ...info, similarArtist: nodes(info.similarArtist).map(plainArtist) },
    };
  }),
  // The same answer: both forms are `albumInfo`.
  getAlbumInfo: infoMethods.getAlbumInfo2,
  getSimilarSongs: folderForm(similarMethods.getSimilarSongs2, (answer) => ({
    similarSongs: inside(answer, "similarSongs2"),
  })),
};
