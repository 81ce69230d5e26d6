import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** Stereo pink noise with a tone and a tremolo: encoders spend real bitrates on it, unlike a sine. */
export function musicLike(seconds: number): string {
  return [
    `anoisesrc=d=${seconds}:c=pink:a=0.25:seed=1[l]`,
    `anoisesrc=d=${seconds}:c=pink:a=0.25:seed=2[r]`,
    "[l][r]amerge=inputs=2,tremolo=f=2:d=0.6[n]",
    `sine=f=220:d=${seconds},volume=0.2[s]`,
    "[n][s]amix=inputs=2:normalize=0,aformat=sample_rates=44100:channel_layouts=stereo",
  ].join(";");
}

export async function ffmpeg(args: string[]): Promise<void> {
  await exec("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", ...args]);
}

/** Encodes `seconds` of music-like audio into `file` with the given codec options. */
export async function makeAudio(file: string, seconds: number, codec: string[]): Promise<void> {
  await ffmpeg(["-filter_complex", musicLike(seconds), ...codec, file]);
}

/** Encodes a lavfi source (`aevalsrc=…`, `anullsrc=…`) into `file`: layouts music-like lacks. */
export async function makeFromFilter(file: string, filter: string, codec: string[]): Promise<void> {
  await ffmpeg(["-f", "lavfi", "-i", filter, ...codec, file]);
}

/** Peak level of each channel of `file`, dBFS, as ffmpeg's astats measures it after decoding. */
export async function channelPeaks(file: string): Promise<number[]> {
  const { stderr } = await exec("ffmpeg", [
    ...["-hide_banner", "-nostdin", "-i", file, "-map", "0:a:0"],
    ...["-af", "astats=measure_overall=none:measure_perchannel=Peak_level", "-f", "null", "-"],
  ]);
  return [...stderr.matchAll(/Peak level dB: (\S+)/g)].map((m) => Number(m[1]));
}

/** A temporary folder removed by the returned function. */
export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "transcoder-test-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
