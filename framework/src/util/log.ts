/** The framework's logger contract: pino's shape, so a pino logger can be passed as it is. */
export interface Logger {
  /** Something failed: `obj` holds the fields (an `err` for the error), `msg` the message. */
  error(obj: unknown, msg?: string): void;
  /** Something is wrong but the request or app goes on. */
  warn(obj: unknown, msg?: string): void;
  /** Lifecycle and request lines. */
  info(obj: unknown, msg?: string): void;
  /** Details for diagnosis, off by default. */
  debug(obj: unknown, msg?: string): void;
}

/** Errors and warnings to stderr as JSON lines; the default until a logger is configured. */
export const consoleLogger: Logger = {
  error: (obj, msg) => process.stderr.write(line('error', obj, msg)),
  warn: (obj, msg) => process.stderr.write(line('warn', obj, msg)),
  info: () => {},
  debug: () => {},
};

function line(level: string, obj: unknown, msg?: string): string {
  const fields: Record<string, unknown> = { level, time: Date.now() };
  if (obj instanceof Error) fields.err = { type: obj.name, message: obj.message, stack: obj.stack };
  else if (obj && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj))
      fields[k] = v instanceof Error ? { type: v.name, message: v.message, stack: v.stack } : v;
  } else if (obj !== undefined) fields.msg = String(obj);
  if (msg !== undefined) fields.msg = msg;
  return JSON.stringify(fields) + '\n';
}
