/** A media playlist as ffmpeg 5.1 writes it: three segments, the init reached through `../192/`. */
export const FFMPEG_PLAYLIST = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-MAP:URI="../192/init_0.mp4"
#EXTINF:4.017052,
segment_00000.m4s
#EXTINF:3.993832,
segment_00001.m4s
#EXTINF:0.037007,
segment_00002.m4s
#EXT-X-ENDLIST
`;
