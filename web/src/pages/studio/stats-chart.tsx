// Plays per day drawn by uPlot (a canvas: a few KiB, in the studio's chunk alone). The chart is
// for the eye only: its numbers are the table the page shows beside it (stats.tsx).
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { daySeconds } from "./stats-range.ts";

const HEIGHT = 220;
const AXIS = { stroke: "#a9b1bd", grid: { stroke: "#2a2f38", width: 1 }, ticks: { show: false } };

export function PlaysChart({ days }: { days: Array<{ day: string; plays: number }> }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [days.map((d) => daySeconds(d.day)), days.map((d) => d.plays)];
    const chart = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: HEIGHT,
        // Days are UTC days: their ticks are named in UTC too.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [AXIS, { ...AXIS, size: 40 }],
        series: [
          {},
          {
            label: "Plays",
            stroke: "#7cc4ff",
            fill: "rgba(124, 196, 255, 0.35)",
            paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
            points: { show: false },
          },
        ],
      },
      data,
      el,
    );
    const resize = () => chart.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT });
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      chart.destroy();
    };
  }, [days]);
  return <div ref={box} class="stats-chart" aria-hidden="true" data-chart="plays" />;
}
