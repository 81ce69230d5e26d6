/**
 * Reads ffmpeg's `-progress` stream (key=value lines, in blocks ending with `progress=continue`
 * or `progress=end`) and reports the output position in seconds at the end of each block.
 * Chunks may split lines anywhere.
 */
export function progressParser(onPosition: (seconds: number) => void): (chunk: string) => void {
  let pending = "";
  let position: number | undefined;
  return (chunk) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const [key, value] = line.trim().split("=", 2);
      // out_time_ms is microseconds too (an old ffmpeg misnomer); out_time_us is the clear name.
      if (key === "out_time_us" || (key === "out_time_ms" && position === undefined)) {
        const micros = Number(value);
        if (Number.isFinite(micros) && micros >= 0) position = micros / 1e6;
      } else if (key === "progress" && position !== undefined) {
        onPosition(position);
        position = undefined;
      }
    }
  };
}

/** The share done of one run, 0–1, from its output position and the expected duration. */
export function fractionDone(position: number, duration: number): number {
  if (!(duration > 0)) return 0;
  return Math.min(1, Math.max(0, position / duration));
}
