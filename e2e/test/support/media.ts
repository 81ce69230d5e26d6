import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A 192 kbps CBR MP3: a 440 Hz tone mixed with noise (pure tones compress to almost nothing,
 * and a real track is not silence), stereo at 44.1 kHz.
 */
export async function makeMp3Source(path: string, seconds: number): Promise<void> {
  await run("ffmpeg", [
    ...["-v", "error", "-y"],
    ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}:sample_rate=44100`],
    ...["-f", "lavfi", "-i", `anoisesrc=color=pink:amplitude=0.2:duration=${seconds}:r=44100`],
    ...["-filter_complex", "[0:a][1:a]amix=inputs=2:duration=first,aformat=channel_layouts=stereo"],
    ...["-c:a", "libmp3lame", "-b:a", "192k", "-ar", "44100", path],
  ]);
}

/** The container's duration as ffprobe reads it, in seconds. */
export async function probeDuration(path: string): Promise<number> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
  ]);
  return Number(stdout.trim());
}

export interface DecodeResult {
  code: number | null;
  /** The decoded duration in seconds (ffmpeg's last `out_time_us`), or NaN if it reported none. */
  seconds: number;
  stderr: string;
}

/**
 * ffmpeg as an HLS client: opens the master playlist over HTTP, follows one rendition's media
 * playlist, init segment and segments, and decodes them to nothing. `-xerror` turns any decode or
 * demux error into a non-zero exit.
 */
export function decodeRendition(masterUrl: string, index: number): Promise<DecodeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "ffmpeg",
      [
        ...["-nostdin", "-v", "error", "-xerror", "-i", masterUrl],
        ...["-map", `0:a:${index}`, "-f", "null", "-progress", "pipe:1", "-"],
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const times = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)].map((m) => Number(m[1]));
      const last = times.at(-1);
      resolve({ code, seconds: last === undefined ? Number.NaN : last / 1e6, stderr });
    });
  });
}
