type Fields = Record<string, unknown>;

const write = (level: string, message: string, fields?: Fields) => {
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    service: "transcoder",
    message,
    ...fields,
  });
  (level === "error" ? console.error : console.log)(line);
};

/** JSON lines, like the Worker's logs. */
export const log = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
