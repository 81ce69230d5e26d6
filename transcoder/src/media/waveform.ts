import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { WAVEFORM_POINTS, Waveform } from "@edge-music/contracts";

/** Where a conversion's waveform lives in its work folder: ffmpeg's PCM, and the JSON from it. */
export const waveformFiles = (outDir: string) => ({
  pcm: `${outDir}/waveform.pcm`,
  json: `${outDir}/waveform.json`,
});

export interface Peaks {
  /** The loudest sample, as a fraction of full scale (0 for digital silence). */
  peak: number;
  /** Per slice, its loudest sample relative to the loudest of all: 0–1, three decimals. */
  peaks: number[];
}

const FULL_SCALE = 32_768;
/** The signed 16-bit sample of two little-endian bytes. */
const s16 = (low: number, high: number) => (((high << 8) | low) << 16) >> 16;
const round = (value: number, decimals: number) => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
};

/**
 * The peaks of mono s16le PCM, read chunk by chunk (a sample may straddle two chunks), so a long
 * track keeps memory flat. `samples` is how many the stream holds (from its size): sample k goes
 * to slice ⌊k·points/samples⌋, so every slice gets ⌊samples/points⌋ or one more. With fewer
 * samples than points, a slice that gets none repeats the one before (the track is stretched).
 */
export async function peaksOf(
  pcm: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  samples: number,
  points: number = WAVEFORM_POINTS,
): Promise<Peaks> {
  // -1: no sample yet.
  const maxima = new Int32Array(points).fill(-1);
  let index = 0;
  const take = (sample: number) => {
    if (index >= samples) return;
    const slice = Math.floor((index * points) / samples);
    const magnitude = sample < 0 ? -sample : sample;
    if (magnitude > (maxima[slice] as number)) maxima[slice] = magnitude;
    index++;
  };
  let low: number | undefined;
  for await (const chunk of pcm) {
    let i = 0;
    if (low !== undefined && chunk.length > 0) {
      take(s16(low, chunk[0] as number));
      low = undefined;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) {
      take(s16(chunk[i] as number, chunk[i + 1] as number));
    }
    if (i < chunk.length) low = chunk[i];
  }
  let previous = 0;
  let loudest = 0;
  for (let i = 0; i < points; i++) {
    if ((maxima[i] as number) < 0) maxima[i] = previous;
    previous = maxima[i] as number;
    if (previous > loudest) loudest = previous;
  }
  return {
    // Six decimals: a track one step above silence must not read as silent.
    peak: round(loudest / FULL_SCALE, 6),
    peaks: Array.from(maxima, (m) => (loudest === 0 ? 0 : round(m / loudest, 3))),
  };
}

/**
 * Reads the PCM ffmpeg wrote (waveformOutput) and writes the track's `Waveform` JSON beside it,
 * checked against the contract. `duration` is the track's, in seconds.
 */
export async function writeWaveform(outDir: string, duration: number): Promise<Waveform> {
  const { pcm, json } = waveformFiles(outDir);
  const samples = Math.floor((await stat(pcm)).size / 2);
  const { peak, peaks } = await peaksOf(createReadStream(pcm), samples);
  const waveform = Waveform.parse({ version: 1, points: WAVEFORM_POINTS, duration, peak, peaks });
  await writeFile(json, JSON.stringify(waveform));
  return waveform;
}
