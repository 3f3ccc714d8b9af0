/** The framework's logger contract: pino's shape, so a pino logger can be passed as it is. */
export interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
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
    for (const [k, v] of Object.entries(obj)) fields[k] = v instanceof Error ? { type: v.name, message: v.message, stack: v.stack } : v;
  } else if (obj !== undefined) fields.msg = String(obj);
  if (msg !== undefined) fields.msg = msg;
  return JSON.stringify(fields) + '\n';
}
