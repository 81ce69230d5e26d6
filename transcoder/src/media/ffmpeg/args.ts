// argv for every ffmpeg and ffprobe run, built by pure functions so the exact flags are unit-tested
// without running anything. Paths are passed as given; the caller chooses absolute ones.

import type { AudioFormat } from "@edge-music/contracts";

/**
 * ffmpeg's demuxer for each format an upload may be sniffed as (`ffmpeg -formats`, 5.1): one
 * demuxer reads the whole ISO media family (`mov,mp4,m4a,3gp,3g2,mj2`), and Opus comes in Ogg
 * (ffmpeg has an `opus` muxer, no such demuxer).
 */
export const DEMUXERS: Record<AudioFormat, string> = {
  mp3: "mp3",
  wav: "wav",
  flac: "flac",
  m4a: "mov",
  ogg: "ogg",
  opus: "ogg",
};

/** The downloaded source, and the format its first bytes were sniffed as (sniffSource). */
export interface SourceFile {
  path: string;
  format: AudioFormat;
}

/**
 * How every run opens the source: with the demuxer of its sniffed format, reading local files
 * only. A security guard: left to guess, ffmpeg skips an ID3 tag and takes a playlist behind it
 * for HLS, whose demuxer opens the URLs it lists (local files, and the network if allowed). With
 * `-f` nothing is guessed; the whitelist refuses every other protocol to whatever would try.
 * Input options: they go before the source (and its `-i`).
 */
function openSource(source: SourceFile): string[] {
  return ["-protocol_whitelist", "file", "-f", DEMUXERS[source.format]];
}

/** Seconds, as ffmpeg's -t reads them (microsecond precision, no exponent). */
const seconds = (value: number) => value.toFixed(6);

const COMMON = ["-hide_banner", "-nostdin", "-y"];
/** Machine-readable progress on stdout, no interactive status line on stderr. */
const PROGRESS = ["-progress", "pipe:1", "-nostats"];

/**
 * Every output is stereo. More channels fold down through ffmpeg's standard matrix (ITU-R BS.775:
 * centre and surrounds at −3 dB into each side, LFE dropped), scaled so that no sum can pass full
 * scale: unscaled, a 5.1 master loud in every channel clips by up to 7.7 dB. A multichannel track
 * thus plays quieter, by that much at most; the loudness gain, measured on this same downmix, gives
 * it back. Mono goes to both sides at −3 dB, which keeps its loudness. An output option: it
 * applies to every resampler ffmpeg inserts for that output, filters' included.
 */
const DOWNMIX = ["-rematrix_maxval", "1"];

export interface HlsArgsInput {
  source: SourceFile;
  /** Where `hls/<rung>/` folders live; they must exist before the run. */
  outDir: string;
  /** Kbps, ascending; at least one. */
  rungs: readonly number[];
  /** The probed duration: bounds every output even when the container lies. */
  duration: number;
}

export interface HlsCommand {
  args: string[];
  /**
   * The run's working directory. ffmpeg 5.1 writes the fMP4 init segment relative to the cwd
   * and does not expand `%v` in an absolute -hls_fmp4_init_filename, so it runs from the first
   * rung's folder and reaches the others through `../%v/`.
   */
  cwd: string;
}

/** One ffmpeg run for the whole AAC ladder: aligned 4 s fMP4 segments, one media playlist per rung. */
export function hlsArgs({ source, outDir, rungs, duration }: HlsArgsInput): HlsCommand {
  const first = rungs[0];
  if (first === undefined) throw new Error("hlsArgs needs at least one rung");
  const hls = `${outDir}/hls`;
  const perRung = rungs.flatMap(() => ["-map", "0:a:0"]);
  const rates = rungs.flatMap((rate, i) => [`-b:a:${i}`, `${rate}k`]);
  // With one rung, %v stays literal in the init file name: the plain name lands in the cwd.
  const init = rungs.length === 1 ? "init_0.mp4" : "../%v/init_0.mp4";
  const streamMap = rungs.map((rate, i) => `a:${i},name:${rate}`).join(" ");
  return {
    cwd: `${hls}/${first}`,
    args: [
      ...COMMON,
      "-v",
      "error",
      ...PROGRESS,
      "-t",
      seconds(duration),
      ...openSource(source),
      "-i",
      source.path,
      ...perRung,
      "-c:a",
      "aac",
      "-ar",
      "44100",
      "-ac",
      "2",
      ...DOWNMIX,
      ...rates,
      "-f",
      "hls",
      "-hls_time",
      "4",
      "-hls_playlist_type",
      "vod",
      "-hls_segment_type",
      "fmp4",
      "-hls_fmp4_init_filename",
      init,
      "-hls_segment_filename",
      `${hls}/%v/segment_%05d.m4s`,
      "-var_stream_map",
      streamMap,
      `${hls}/%v/index.m3u8`,
    ],
  };
}

export interface OpusArgsInput {
  source: SourceFile;
  outDir: string;
  rungs: readonly number[];
  duration: number;
  /** Where to write the waveform's PCM (waveformOutput); none without it. */
  waveform?: string;
}

/** The sample rate of the waveform's PCM: plenty for 2000 peaks, and cheap to make and read. */
export const WAVEFORM_RATE = 8_000;

/**
 * The waveform's samples: the source mixed to mono (every channel, scaled so that no sum can pass
 * full scale, as in DOWNMIX), resampled to WAVEFORM_RATE, raw s16le in a file, so that a long
 * track costs disk, not memory. One more output of a decode made anyway: one cheap resampler.
 */
export function waveformOutput(file: string): string[] {
  return [
    "-map",
    "0:a:0",
    "-c:a",
    "pcm_s16le",
    "-ar",
    String(WAVEFORM_RATE),
    "-ac",
    "1",
    ...DOWNMIX,
    "-f",
    "s16le",
    file,
  ];
}

/**
 * The progressive Opus files, plus the EBU R128 scan as an extra `-f null` output of the same
 * decode. The scan measures the stereo downmix every output carries, not the source's channels:
 * the gain derived from it is applied to what players decode. Runs at info level: the scan's
 * summary is an info message on stderr (the per-frame lines are pushed down to verbose). With
 * `waveform`, the waveform's PCM is one more output, before the scan (which stays the last).
 */
export function opusArgs({ source, outDir, rungs, duration, waveform }: OpusArgsInput): string[] {
  const outputs = rungs.flatMap((rate) => [
    "-map",
    "0:a:0",
    "-c:a",
    "libopus",
    "-b:a",
    `${rate}k`,
    "-ar",
    "48000",
    "-ac",
    "2",
    ...DOWNMIX,
    "-f",
    "opus",
    `${outDir}/audio/${rate}k.opus`,
  ]);
  return [
    ...COMMON,
    "-v",
    "info",
    ...PROGRESS,
    "-t",
    seconds(duration),
    ...openSource(source),
    "-i",
    source.path,
    ...outputs,
    ...(waveform === undefined ? [] : waveformOutput(waveform)),
    "-map",
    "0:a:0",
    ...DOWNMIX,
    "-filter:a",
    "aformat=channel_layouts=stereo,ebur128=peak=true:framelog=verbose",
    "-f",
    "null",
    "-",
  ];
}

/** A cover's longest side at most, in pixels: sharp in a large player view, small to send. */
export const COVER_MAX_SIDE = 1200;

/**
 * The largest picture decoded for a cover: 36 megapixels (6000 × 6000), some 100 MB once
 * decoded. A picture claiming more is refused by the decoder before it allocates the frame.
 */
export const PICTURE_MAX_PIXELS = 36_000_000;

export interface CoverArgsInput {
  source: SourceFile;
  /** The attached picture's stream index in the source (ffprobe's `index`). */
  stream: number;
  output: string;
}

/**
 * The source's attached picture (ID3 APIC, FLAC or Vorbis picture block, MP4 `covr`) as a cover:
 * its one frame, shrunk to fit COVER_MAX_SIDE × COVER_MAX_SIDE with its aspect kept (never
 * enlarged), re-encoded as a JPEG at mjpeg's quality 3 of 2–31 (the other images' 4:2:0 full
 * range; a transparent PNG loses its alpha). The decoder's pixel limit is an input option.
 * Nothing but the picture is read: ffmpeg stops after its one frame, whatever the audio's length.
 */
export function coverArgs({ source, stream, output }: CoverArgsInput): string[] {
  const fit = `scale=w='min(${COVER_MAX_SIDE},iw)':h='min(${COVER_MAX_SIDE},ih)'`;
  return [
    ...COMMON,
    "-v",
    "error",
    "-max_pixels",
    String(PICTURE_MAX_PIXELS),
    ...openSource(source),
    "-i",
    source.path,
    "-map",
    `0:${stream}`,
    "-frames:v",
    "1",
    "-filter:v",
    `${fit}:force_original_aspect_ratio=decrease:flags=lanczos,format=yuvj420p`,
    "-c:v",
    "mjpeg",
    "-q:v",
    "3",
    "-f",
    "mjpeg",
    output,
  ];
}

/** Container and streams as JSON; warnings kept (they say when a duration is only an estimate). */
export function probeArgs(source: SourceFile): string[] {
  return [
    ...["-v", "warning", "-print_format", "json", "-show_format", "-show_streams"],
    ...openSource(source),
    source.path,
  ];
}

/** Every packet of the first audio stream: `duration_time,size` per line (exact bitrate, duration). */
export function packetArgs(source: SourceFile): string[] {
  return [
    "-v",
    "error",
    "-select_streams",
    "a:0",
    "-show_entries",
    "packet=duration_time,size",
    "-print_format",
    "csv=p=0",
    ...openSource(source),
    source.path,
  ];
}

/**
 * One rung of the AAC ladder as one whole MP4 file: the HLS rendition's init segment and segments
 * joined without re-encoding, its index first (`+faststart`), for players that take one file
 * rather than HLS (the Subsonic door's `stream`: apps' players seek in it by that index). It
 * reads the playlist this conversion wrote, through the HLS demuxer held to local files.
 */
export function wholeAacArgs(playlist: string, output: string): string[] {
  return [
    ...COMMON,
    "-v",
    "error",
    ...["-protocol_whitelist", "file", "-f", "hls", "-i", playlist],
    ...["-map", "0:a:0", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", output],
  ];
}

/** The duration of a finished output, to compare with the source's. */
export function durationArgs(file: string): string[] {
  return ["-v", "error", "-show_entries", "format=duration", "-print_format", "csv=p=0", file];
}
