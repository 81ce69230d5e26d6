"""Drives Sublime Music's own Subsonic adapter (the code the desktop app runs, from Debian's
`sublime-music` package) against a running stack, as the app does when a listener browses,
searches, plays, scrobbles, edits playlists and saves the play queue. No window is opened: the
adapter is the part of the app that speaks the protocol and parses the answers into its models.

Reads SUBSONIC_SERVER, SUBSONIC_USERNAME, SUBSONIC_PASSWORD (an app password) and SONG_IDS
(comma-separated READY tracks of one artist) from the environment. Prints one JSON object of
what the app saw; exits non-zero when any step raised (the step and the error are printed).
"""

import json
import os
import sys
import tempfile
import traceback
from datetime import timedelta
from pathlib import Path

import requests
from sublime_music.adapters import AlbumSearchQuery, ConfigurationStore
from sublime_music.adapters.subsonic import SubsonicAdapter


def main() -> int:
    config = ConfigurationStore(
        server_address=os.environ["SUBSONIC_SERVER"],
        username=os.environ["SUBSONIC_USERNAME"],
        verify_cert=True,
        salt_auth=True,
    )
    config.set_secret("password", os.environ["SUBSONIC_PASSWORD"])
    song_ids = os.environ["SONG_IDS"].split(",")
    adapter = SubsonicAdapter(config, Path(tempfile.mkdtemp()))
    seen: dict = {}
    step = "start"
    try:
        step = "ping"
        # As the app pings at start; a generous bound (a loaded machine is not what is tested).
        adapter._set_ping_status(timeout=60)
        seen["ping"] = adapter.ping_status
        seen["version"] = adapter._version.value.decode()

        step = "getArtists"
        artists = adapter.get_artists()
        seen["artists"] = [a.name for a in artists]
        step = "getSong"
        song = adapter.get_song_details(song_ids[0])
        seen["song"] = {"id": song.id, "title": song.title, "duration": song.duration.total_seconds() if song.duration else None, "album_id": song.album.id if song.album else None, "artist_id": song.artist.id if song.artist else None}
        step = "getArtist"
        artist = adapter.get_artist(song.artist.id)
        seen["artist"] = {"name": artist.name, "albums": [a.id for a in artist.albums or []]}
        step = "getAlbum"
        album = adapter.get_album(song.album.id)
        seen["album"] = {"id": album.id, "songs": [s.id for s in album.songs or []]}
        step = "getAlbumList2"
        seen["album_lists"] = {}
        for kind in (
            AlbumSearchQuery.Type.RANDOM,
            AlbumSearchQuery.Type.NEWEST,
            AlbumSearchQuery.Type.ALPHABETICAL_BY_NAME,
            AlbumSearchQuery.Type.ALPHABETICAL_BY_ARTIST,
            AlbumSearchQuery.Type.STARRED,
        ):
            step = f"getAlbumList2 {kind.name}"
            seen["album_lists"][kind.name] = len(list(adapter.get_albums(AlbumSearchQuery(kind))))
        step = "getIndexes"
        indexes = adapter._get_indexes()
        seen["indexes"] = len(indexes.children)
        step = "getMusicDirectory"
        directory = adapter.get_directory(song.artist.id)
        seen["directory"] = len(directory.children)
        step = "getGenres"
        seen["genres"] = len(adapter.get_genres())
        step = "search3"
        result = adapter.search(song.title)
        seen["search"] = [s.id for s in result.songs]

        step = "stream"
        url = adapter.get_song_stream_uri(song.id)
        whole = requests.get(url, timeout=30)
        part = requests.get(url, headers={"Range": "bytes=0-1023"}, timeout=30)
        seen["stream"] = {
            "status": whole.status_code,
            "type": whole.headers.get("content-type"),
            "length": len(whole.content),
            "range_status": part.status_code,
            "range_length": len(part.content),
        }
        step = "download"
        download = requests.get(adapter.get_song_file_uri(song.id, ["http"]), timeout=30)
        seen["download"] = {"status": download.status_code, "length": len(download.content)}
        step = "getCoverArt"
        if song.cover_art:
            cover = requests.get(adapter.get_cover_art_uri(song.cover_art, "http", 300), timeout=30)
            seen["cover"] = {"status": cover.status_code, "type": cover.headers.get("content-type")}

        step = "scrobble"
        adapter.scrobble_song(song)
        step = "createPlaylist"
        made = adapter.create_playlist("From Sublime Music", [song])
        seen["created"] = {"id": made.id, "songs": made.song_count} if made else None
        playlist_id = made.id if made else next(
            p.id for p in adapter.get_playlists() if p.name == "From Sublime Music"
        )
        step = "updatePlaylist"
        updated = adapter.update_playlist(
            playlist_id,
            name="Sublime road",
            comment="Made in an app",
            public=True,
            append_song_ids=song_ids[1:],
        )
        seen["updated"] = {
            "name": updated.name,
            "comment": updated.comment,
            "public": updated.public,
            "songs": [s.id for s in updated.songs],
        }
        step = "updatePlaylist song_ids"
        reordered = adapter.update_playlist(playlist_id, song_ids=list(reversed(song_ids)))
        seen["reordered"] = [s.id for s in reordered.songs]
        step = "getPlaylists"
        seen["playlists"] = [p.name for p in adapter.get_playlists()]

        step = "savePlayQueue"
        adapter.save_play_queue(song_ids, current_song_index=1, position=timedelta(seconds=3))
        step = "getPlayQueue"
        queue = adapter.get_play_queue()
        seen["play_queue"] = {
            "songs": [s.id for s in queue.songs],
            "current": queue.current_index,
            "position": queue.position.total_seconds() if queue.position else None,
        }

        step = "deletePlaylist"
        extra = adapter.create_playlist("To delete", [])
        extra_id = extra.id if extra else next(
            p.id for p in adapter.get_playlists() if p.name == "To delete"
        )
        adapter.delete_playlist(extra_id)
        seen["after_delete"] = [p.name for p in adapter.get_playlists()]
    except Exception:
        print(json.dumps({"failed": step, "seen": seen}), flush=True)
        traceback.print_exc()
        return 1
    print(json.dumps(seen), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
