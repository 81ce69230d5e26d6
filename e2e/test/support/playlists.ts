/** One `#EXT-X-STREAM-INF` of a master playlist with the URI on the line after it. */
export interface Variant {
  attributes: Record<string, string>;
  uri: string;
}

/** A media playlist: its target duration and its segments (EXTINF duration and URI). */
export interface MediaPlaylist {
  targetDuration: number;
  endList: boolean;
  map: string | undefined;
  segments: Array<{ duration: number; uri: string }>;
}

export function parseMaster(text: string): Variant[] {
  const lines = playlistLines(text);
  const variants: Variant[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith("#EXT-X-STREAM-INF:")) return;
    const uri = lines[i + 1];
    if (uri === undefined || uri.startsWith("#")) throw new Error(`no URI after ${line}`);
    variants.push({ attributes: parseAttributes(line.slice(line.indexOf(":") + 1)), uri });
  });
  return variants;
}

export function parseMedia(text: string): MediaPlaylist {
  const lines = playlistLines(text);
  const playlist: MediaPlaylist = {
    targetDuration: Number.NaN,
    endList: lines.includes("#EXT-X-ENDLIST"),
    map: undefined,
    segments: [],
  };
  lines.forEach((line, i) => {
    if (line.startsWith("#EXT-X-TARGETDURATION:")) {
      playlist.targetDuration = Number(line.slice(line.indexOf(":") + 1));
    } else if (line.startsWith("#EXT-X-MAP:")) {
      playlist.map = parseAttributes(line.slice(line.indexOf(":") + 1)).URI;
    } else if (line.startsWith("#EXTINF:")) {
      const uri = lines[i + 1];
      if (uri === undefined || uri.startsWith("#")) throw new Error(`no URI after ${line}`);
      const duration = Number(line.slice(line.indexOf(":") + 1).split(",")[0]);
      playlist.segments.push({ duration, uri });
    }
  });
  return playlist;
}

function playlistLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines[0] !== "#EXTM3U") throw new Error(`not a playlist: ${text.slice(0, 80)}`);
  return lines;
}

/** `KEY=value,KEY="quoted, value"` (RFC 8216 attribute lists); quotes are removed. */
function parseAttributes(list: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) {
    const [, key = "", raw = ""] = match;
    attributes[key] = raw.startsWith('"') ? raw.slice(1, -1) : raw;
  }
  return attributes;
}
