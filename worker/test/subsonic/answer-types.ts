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
export type GetAlbumInfoAnswer = Answer<"getAlbumInfo">;
export type GetAlbumList2Answer = Answer<"getAlbumList2">;
export type GetAlbumListAnswer = Answer<"getAlbumList">;
export type GetArtistAnswer = Answer<"getArtist">;
export type GetArtistInfo2Answer = Answer<"getArtistInfo2">;
export type GetArtistInfoAnswer = Answer<"getArtistInfo">;
export type GetArtistsAnswer = Answer<"getArtists">;
export type GetBookmarksAnswer = Answer<"getBookmarks">;
export type GetChatMessagesAnswer = Answer<"getChatMessages">;
export type GetGenresAnswer = Answer<"getGenres">;
export type GetIndexesAnswer = Answer<"getIndexes">;
export type GetInternetRadioStationsAnswer = Answer<"getInternetRadioStations">;
export type GetLicenseAnswer = Answer<"getLicense">;
export type GetLyricsAnswer = Answer<"getLyrics">;
export type GetLyricsBySongIdAnswer = Answer<"getLyricsBySongId">;
export type GetMusicDirectoryAnswer = Answer<"getMusicDirectory">;
export type GetMusicFoldersAnswer = Answer<"getMusicFolders">;
export type GetNewestPodcastsAnswer = Answer<"getNewestPodcasts">;
export type GetNowPlayingAnswer = Answer<"getNowPlaying">;
export type GetOpenSubsonicExtensionsAnswer = Answer<"getOpenSubsonicExtensions">;
export type GetPlaylistAnswer = Answer<"getPlaylist">;
export type GetPlaylistsAnswer = Answer<"getPlaylists">;
export type GetPlayQueueAnswer = Answer<"getPlayQueue">;
export type GetPodcastsAnswer = Answer<"getPodcasts">;
export type GetRandomSongsAnswer = Answer<"getRandomSongs">;
export type GetScanStatusAnswer = Answer<"getScanStatus">;
export type GetSharesAnswer = Answer<"getShares">;
export type GetSimilarSongs2Answer = Answer<"getSimilarSongs2">;
export type GetSimilarSongsAnswer = Answer<"getSimilarSongs">;
export type GetSongAnswer = Answer<"getSong">;
export type GetSongsByGenreAnswer = Answer<"getSongsByGenre">;
export type GetStarred2Answer = Answer<"getStarred2">;
export type GetStarredAnswer = Answer<"getStarred">;
export type GetTopSongsAnswer = Answer<"getTopSongs">;
export type GetUserAnswer = Answer<"getUser">;
export type GetVideosAnswer = Answer<"getVideos">;
export type PingAnswer = Answer<"ping">;
export type SavePlayQueueAnswer = Answer<"savePlayQueue">;
export type ScrobbleAnswer = Answer<"scrobble">;
export type Search2Answer = Answer<"search2">;
export type Search3Answer = Answer<"search3">;
export type SetRatingAnswer = Answer<"setRating">;
export type StarAnswer = Answer<"star">;
export type UnstarAnswer = Answer<"unstar">;
export type UpdatePlaylistAnswer = Answer<"updatePlaylist">;
