// The log lines of a process started for a benchmark (the Worker, the transcoder): kept up to a
// bound, to show the lines of an answer that went wrong (found by its request id) and a count of
// the error lines by message.

export interface LogLines {
  push(line: string): void;
  /** Lines that contain `text` (a request id), at most `max`. */
  matching(text: string, max?: number): string[];
  /** Lines at level warn or error (JSON lines) or naming an error, counted by message. */
  problems(): Map<string, number>;
}

export function logLines(limit = 20_000): LogLines {
  const lines: string[] = [];
  return {
    push(line) {
      if (lines.length < limit) lines.push(line);
    },
    matching: (text, max = 5) => lines.filter((line) => line.includes(text)).slice(0, max),
    problems() {
      const counts = new Map<string, number>();
      for (const line of lines) {
        const key = problemOf(line);
        if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    },
  };
}

interface Described {
  errorMessage?: string;
  cause?: Described;
}
interface Entry extends Described {
  level?: string;
  message?: string;
}

/** The JSON entry of a log line (wrangler wraps error lines in colour codes and a marker). */
function entryOf(line: string): Entry | undefined {
  const [start, end] = [line.indexOf("{"), line.lastIndexOf("}")];
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(line.slice(start, end + 1)) as Entry;
  } catch {
    return undefined;
  }
}

/** `level: message ← error ← its cause ← …`: what went wrong, without the stack. */
export function summarizeLine(line: string): string {
  const entry = entryOf(line);
  if (!entry) return line.slice(0, 300);
  const chain: string[] = [];
  for (let e: Described | undefined = entry; e; e = e.cause) {
    // Each link shortened (a failed query's message holds the whole statement) so the cause,
    // the last link, stays in sight.
    if (e.errorMessage) chain.push(e.errorMessage.replace(/\s+/g, " ").slice(0, 160));
  }
  return [`${entry.level}: ${entry.message}`, ...chain].join(" ← ").slice(0, 500);
}

function problemOf(line: string): string | undefined {
  const entry = entryOf(line);
  if (entry) {
    if (entry.level !== "warn" && entry.level !== "error") return undefined;
    // Without the parameters of a failed query: they differ on every line.
    return summarizeLine(line).replace(/ params: [^←]*/g, " ");
  }
  return /error|exception|uncaught/i.test(line) ? line.slice(0, 200) : undefined;
}
