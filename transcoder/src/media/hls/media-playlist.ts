export interface MediaSegment {
  uri: string;
  /** EXTINF as written (compared verbatim across renditions). */
  extinf: string;
  duration: number;
}

export interface MediaPlaylist {
  targetDuration: number;
  mapUri: string | undefined;
  segments: MediaSegment[];
  ended: boolean;
}

/** Reads the parts of an ffmpeg VOD media playlist the checks and the master playlist need. */
export function parseMediaPlaylist(text: string): MediaPlaylist {
  const playlist: MediaPlaylist = {
    targetDuration: 0,
    mapUri: undefined,
    segments: [],
    ended: false,
  };
  let extinf: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("#EXT-X-TARGETDURATION:")) {
      playlist.targetDuration = Number(line.slice("#EXT-X-TARGETDURATION:".length));
    } else if (line.startsWith("#EXT-X-MAP:")) {
      playlist.mapUri = /URI="([^"]*)"/.exec(line)?.[1];
    } else if (line.startsWith("#EXTINF:")) {
      extinf = line.slice("#EXTINF:".length).split(",")[0];
    } else if (line === "#EXT-X-ENDLIST") {
      playlist.ended = true;
    } else if (line !== "" && !line.startsWith("#") && extinf !== undefined) {
      playlist.segments.push({ uri: line, extinf, duration: Number(extinf) });
      extinf = undefined;
    }
  }
  return playlist;
}

/**
 * ffmpeg writes the init segment's path as it reached it (`../192/init_0.mp4`, see hlsArgs);
 * every rendition keeps its own init beside its segments, so the URI becomes the plain name.
 */
export function rewriteInitUri(text: string): string {
  return text.replace(/#EXT-X-MAP:URI="[^"]*"/g, '#EXT-X-MAP:URI="init_0.mp4"');
}

/**
 * ffmpeg rounds the longest segment's duration, so a source under half a second gets
 * `#EXT-X-TARGETDURATION:0`, which players reject: a target duration is at least 1.
 */
export function raiseTargetDuration(text: string): string {
  return text.replace(/^#EXT-X-TARGETDURATION:0[ \t]*$/m, "#EXT-X-TARGETDURATION:1");
}

/** `segment_00042.m4s` → 42; undefined for any other name. */
export function segmentIndex(uri: string): number | undefined {
  const match = /^segment_(\d{5,})\.m4s$/.exec(uri);
  return match ? Number(match[1]) : undefined;
}
