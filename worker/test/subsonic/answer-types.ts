import type SubsonicAPI from "subsonic-api";

/**
 * The answer `subsonic-api` (a client library app authors use) expects of each method this door
 * answers with a document, by the library's own declarations: the input of
 * `worker/scripts/subsonic-schemas.ts`, which turns each into a JSON Schema. One type per method,
 * named after it (`getAlbum` → `GetAlbumAnswer`). The schema generator reads a promise as its
 * value (it does not follow `Awaited`), so these name the methods' return types as declared.
 * Byte methods (stream, download, getCoverArt) have no document to check; tokenInfo is not in the
 * library.
 */
type Answer<M extends keyof SubsonicAPI> = ReturnType<SubsonicAPI[M]>;

export type CreatePlaylistAnswer = Answer<"createPlaylist">;
export type DeletePlaylistAnswer = Answer<"deletePlaylist">;
export type GetAlbumAnswer = Answer<"getAlbum">;
export type GetAlbumInfo2Answer = Answer<"getAlbumInfo2">;
export type GetAlbumList2Answer = Answer<"getAlbumList2">;
export type GetArtistAnswer = Answer<"getArtist">;
export type GetArtistInfo2Answer = Answer<"getArtistInfo2">;
export type GetArtistsAnswer = Answer<"getArtists">;
export type GetGenresAnswer = Answer<"getGenres">;
export type GetIndexesAnswer = Answer<"getIndexes">;
export type GetLicenseAnswer = Answer<"getLicense">;
export type GetLyricsBySongIdAnswer = Answer<"getLyricsBySongId">;
export type GetMusicDirectoryAnswer = Answer<"getMusicDirectory">;
export type GetMusicFoldersAnswer = Answer<"getMusicFolders">;
export type GetNowPlayingAnswer = Answer<"getNowPlaying">;
export type GetOpenSubsonicExtensionsAnswer = Answer<"getOpenSubsonicExtensions">;
export type GetPlayQueueAnswer = Answer<"getPlayQueue">;
export type GetPlaylistAnswer = Answer<"getPlaylist">;
export type GetPlaylistsAnswer = Answer<"getPlaylists">;
export type GetRandomSongsAnswer = Answer<"getRandomSongs">;
export type GetScanStatusAnswer = Answer<"getScanStatus">;
export type GetSimilarSongs2Answer = Answer<"getSimilarSongs2">;
export type GetSongAnswer = Answer<"getSong">;
export type GetStarred2Answer = Answer<"getStarred2">;
export type GetTopSongsAnswer = Answer<"getTopSongs">;
export type GetUserAnswer = Answer<"getUser">;
export type PingAnswer = Answer<"ping">;
export type SavePlayQueueAnswer = Answer<"savePlayQueue">;
export type ScrobbleAnswer = Answer<"scrobble">;
export type Search3Answer = Answer<"search3">;
export type SetRatingAnswer = Answer<"setRating">;
export type StarAnswer = Answer<"star">;
export type UnstarAnswer = Answer<"unstar">;
export type UpdatePlaylistAnswer = Answer<"updatePlaylist">;
