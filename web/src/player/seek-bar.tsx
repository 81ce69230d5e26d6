// The seek bar: a native range input (keyboard, screen readers, touch) over the track's
// waveform when it exists, the played part drawn in the accent colour.
import { useMemo } from "preact/hooks";
import { formatTime } from "../ui/format.ts";
import { player } from "./engine.ts";
import { downsample } from "./queue.ts";

const BARS = 160;

export function SeekBar() {
  const peaks = player.peaks.value;
  const duration = player.duration.value;
  const time = player.currentTime.value;
  const bars = useMemo(() => (peaks ? downsample(peaks, BARS) : null), [peaks]);
  const played = duration > 0 ? Math.min(1, time / duration) : 0;
  return (
    <div class="seek">
      <span class="time" aria-hidden="true">
        {formatTime(time)}
      </span>
      <div class={bars ? "seek-track waveform" : "seek-track"}>
        {bars && (
          <svg
            viewBox={`0 0 ${BARS} 100`}
            preserveAspectRatio="none"
            aria-hidden="true"
            data-testid="waveform"
          >
            <defs>
              <clipPath id="played">
                <rect x="0" y="0" width={played * BARS} height="100" />
              </clipPath>
            </defs>
            <path class="wave" d={wavePath(bars)} />
            <path class="wave played" d={wavePath(bars)} clip-path="url(#played)" />
          </svg>
        )}
        <input
          type="range"
          aria-label="Seek"
          min={0}
          max={Math.max(duration, 0)}
          step={1}
          value={time}
          aria-valuetext={`${formatTime(time)} of ${formatTime(duration)}`}
          disabled={player.index.value < 0}
          onInput={(event) => player.seek(Number(event.currentTarget.value))}
        />
      </div>
      <span class="time" aria-hidden="true">
        {formatTime(duration)}
      </span>
    </div>
  );
}

/** One vertical bar per peak, centred, at least a hairline so silence still shows. */
function wavePath(bars: number[]): string {
  return bars
    .map((peak, i) => {
      const h = Math.max(2, peak * 96);
      return `M${i + 0.15} ${50 - h / 2}h0.7v${h}h-0.7z`;
    })
    .join("");
}
