export type LogFn = (line: string) => void;

/** Splits a child's output into lines and hands each to `log` (the dev stack prefixes them). */
export function lineSplitter(log: LogFn): (chunk: Buffer | string) => void {
  let pending = "";
  return (chunk) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") log(line);
  };
}

export const silent: LogFn = () => {};

/** Keeps the last `size` log lines of every process, prefixed with its name (failure messages). */
export function logTail(size: number) {
  const lines: string[] = [];
  return {
    add: (name: string) => (line: string) => {
      if (lines.push(`[${name}] ${line}`) > size) lines.shift();
    },
    text: () => lines.join("\n"),
  };
}
