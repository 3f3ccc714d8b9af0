import * as diagnostics from 'node:diagnostics_channel';
import pino from 'pino';
import type { LogFields, Logger } from '../../plugin';

/** Levels a request's access line can be written at (the `Logger` methods). */
export type RequestLogLevel = 'error' | 'warn' | 'info' | 'debug';

/** pino's number for each level an access line takes (its standard levels). */
const LEVEL_NUMBERS: Readonly<Record<RequestLogLevel, number>> = { error: 50, warn: 40, info: 30, debug: 20 };
/** The fields of an access line, in the order they are written. */
const FIELDS = ['method', 'path', 'status', 'durationMs', 'reqId', 'aborted', 'remoteAddress'] as const;
/** The message of every access line. */
const MESSAGE = 'request';

// The runtime object has more symbols than pino's types name (msgPrefixSym): missing ones read as undefined.
const S = pino.symbols as unknown as Readonly<Record<string, symbol>>;
/** pino traces its serialisation here (`tracing:pino_asJson:*`); a subscriber gets its lines through pino itself. */
const asJsonChannel = diagnostics.tracingChannel('pino_asJson');
/** Every internal read here: a pino without one of them has its lines written by its own methods. */
const KNOWN_INTERNALS = [
  'writeSym',
  'asJsonSym',
  'useOnlyCustomLevelsSym',
  'mixinSym',
  'nestedKeySym',
  'msgPrefixSym',
  'hooksSym',
  'formattersSym',
  'messageKeySym',
  'errorKeySym',
  'serializersSym',
  'stringifiersSym',
  'streamSym',
  'lsCacheSym',
  'timeSym',
  'chindingsSym',
  'endSym',
  'wildcardFirstSym',
  'needsMetadataGsym',
].every((name) => typeof S[name] === 'symbol');

/** A pino logger's internals as `pino.symbols` names them (the fields read here). */
interface PinoInternals {
  [key: symbol]: any;
}

/**
 * Writes access lines (`{ method, path, status, durationMs, reqId?, aborted?, remoteAddress? }` with the message
 * `request`) to a logger at one level.
 *
 * A plain pino logger of the pino this package depends on (`createLogger`'s, or one the app made with that pino)
 * gets the line serialised here, byte for byte as pino would write it, and given to its stream as pino would:
 * pino's general serialiser loops over the object's keys and looks up a serializer and a redaction for each,
 * several times the cost of this one. Any setting that could change the line (a mixin, hooks, `formatters.log`,
 * a serializer or redaction of one of the line's keys or of the message, `nestedKey`, `msgPrefix`, custom levels
 * only, a stream that asks for metadata, a subscriber of pino's tracing channel) sends the line through the
 * logger's own method instead, as does any other logger. A change of level (pino gives the logger new level
 * methods) or of bindings (`setBindings`) applies from the next line; pino fixes the other settings when it makes
 * a logger.
 */
export class AccessLineWriter {
  private readonly levelNumber: number;
  /** The logger and level method the plan below was made for. */
  private logger: Logger | null = null;
  private method: unknown = undefined;
  /** `,"msg":"request"` when this writer serialises the logger's lines itself; null: through the logger's method. */
  private messagePart: string | null = null;
  // The plain pino logger's parts that never change (`setBindings` changes its bindings: they are read per line).
  private prefix = '';
  private time: () => string = () => '';
  /** The logger writes pino's default time (`,"time":<Date.now()>`): its text is made once per millisecond. */
  private epochTime = false;
  /** The line up to the path (level, time, bindings, method) as last made, and what it was made of. */
  private start = '';
  private startNow = -1;
  private startBindings: string | null = null;
  private startMethod: string | null = null;
  /** `","status":200,"durationMs":` for the last status written. */
  private statusPart = '';
  private lastStatus: number | null = null;
  /** The message and the end of the line. */
  private tail = '';
  private stream: { write(line: string): unknown } | null = null;

  constructor(private readonly level: RequestLogLevel) {
    this.levelNumber = LEVEL_NUMBERS[level];
  }

  /**
   * Writes one access line: `durationMicros` is the duration in whole microseconds (written as milliseconds);
   * `reqId` and `remoteAddress` are left out when undefined, `aborted` when false; `fields` (the plugins' log
   * fields) come last, and send the line through the logger's own method (pino serialises them).
   */
  write(
    logger: Logger,
    method: string,
    path: string,
    status: number,
    durationMicros: number,
    reqId: string | undefined,
    aborted: boolean,
    remoteAddress: string | undefined,
    fields?: LogFields,
  ): void {
    const log = logger[this.level];
    // pino gives a logger new level methods when its level changes: the plan is made again then.
    if (log !== this.method || logger !== this.logger) this.plan(logger, log);
    const stream = this.stream;
    if (stream === null || fields !== undefined || asJsonChannel.hasSubscribers !== false) {
      const line: Record<string, unknown> = { method, path, status, durationMs: durationMicros / 1000 };
      if (reqId !== undefined) line.reqId = reqId;
      if (aborted) line.aborted = true;
      if (remoteAddress !== undefined) line.remoteAddress = remoteAddress;
      if (fields !== undefined) Object.assign(line, fields);
      log.call(logger, line, MESSAGE);
      return;
    }
    // pino's own order: level, time, bindings, the fields, the message, the end.
    const bindings: string = (logger as unknown as PinoInternals)[chindingsSym];
    let start: string;
    if (this.epochTime) {
      const now = Date.now();
      if (now !== this.startNow || bindings !== this.startBindings || method !== this.startMethod) {
        this.startNow = now;
        this.startBindings = bindings;
        this.startMethod = method;
        // Joined into one flat string: each line then adds a single piece for it.
        this.start = [this.prefix, ',"time":', now, bindings, ',"method":"', stringBody(method), '","path":"'].join('');
      }
      start = this.start;
    } else {
      start = this.prefix + this.time.call(logger) + bindings + ',"method":"' + stringBody(method) + '","path":"';
    }
    if (status !== this.lastStatus) {
      this.lastStatus = status;
      this.statusPart = '","status":' + asNumber(status) + ',"durationMs":';
    }
    let text = start + stringBody(path) + this.statusPart + milliseconds(durationMicros);
    if (reqId !== undefined) text += ',"reqId":"' + stringBody(reqId) + '"';
    if (aborted) text += ',"aborted":true';
    if (remoteAddress !== undefined) text += ',"remoteAddress":"' + stringBody(remoteAddress) + '"';
    stream.write(text + this.tail);
  }

  private plan(logger: Logger, method: unknown): void {
    const p = logger as unknown as PinoInternals;
    this.logger = logger;
    this.method = method;
    this.messagePart = plainPinoMessagePart(p, method, this.levelNumber);
    if (this.messagePart === null) {
      this.stream = null;
      return;
    }
    this.prefix = p[S.lsCacheSym][this.levelNumber];
    this.tail = this.messagePart + p[S.endSym];
    this.time = p[S.timeSym];
    this.epochTime = this.time === pino.stdTimeFunctions.epochTime;
    this.startMethod = null;
    this.stream = p[S.streamSym];
  }
}

/** Read on every line (`setBindings` changes it). */
const chindingsSym = S.chindingsSym!;

let reference: PinoInternals | null = null;

/** pino's own `write` and `asJson` (on the prototype every logger of this pino shares). */
function pinoReference(): PinoInternals {
  if (reference === null) reference = pino({ level: 'silent' }, { write: () => undefined }) as unknown as PinoInternals;
  return reference;
}

/**
 * `,"<messageKey>":"request"` when `logger` is a pino logger whose access lines this module writes exactly as
 * pino would; null otherwise (another logger, another pino, or a setting that could change the line).
 */
function plainPinoMessagePart(logger: PinoInternals, method: unknown, levelNumber: number): string | null {
  // pino's level method for an enabled level without a logMethod hook is named LOG (a disabled one is noop).
  if (!KNOWN_INTERNALS || typeof method !== 'function' || method.name !== 'LOG') return null;
  const ref = pinoReference();
  if (logger[S.writeSym] !== ref[S.writeSym] || logger[S.asJsonSym] !== ref[S.asJsonSym]) return null;
  if (
    logger[S.useOnlyCustomLevelsSym] ||
    logger[S.mixinSym] ||
    logger[S.nestedKeySym] ||
    typeof logger[S.msgPrefixSym] === 'string'
  )
    return null;
  const hooks = logger[S.hooksSym];
  if (hooks === null || typeof hooks !== 'object' || hooks.logMethod || hooks.streamWrite) return null;
  const formatters = logger[S.formattersSym];
  if (formatters === null || typeof formatters !== 'object' || formatters.log) return null;
  const messageKey = logger[S.messageKeySym];
  const errorKey = logger[S.errorKeySym];
  const serializers = logger[S.serializersSym];
  const stringifiers = logger[S.stringifiersSym];
  const stream = logger[S.streamSym];
  if (
    typeof messageKey !== 'string' ||
    serializers == null ||
    stringifiers == null ||
    stream == null ||
    typeof stream.write !== 'function' ||
    stream[S.needsMetadataGsym] === true
  )
    return null;
  if (
    typeof logger[S.lsCacheSym]?.[levelNumber] !== 'string' ||
    typeof logger[S.timeSym] !== 'function' ||
    typeof logger[S.chindingsSym] !== 'string' ||
    typeof logger[S.endSym] !== 'string'
  )
    return null;
  if (stringifiers[S.wildcardFirstSym]) return null;
  for (const key of [...FIELDS, messageKey]) {
    if (serializers[key] || stringifiers[key]) return null;
    if (key === errorKey && serializers.err) return null;
  }
  return ',"' + messageKey + '":' + asString(MESSAGE);
}

/**
 * `micros / 1000` as JavaScript writes it (`String(micros / 1000)`), from whole microseconds below 2^30 without a
 * floating-point conversion: such a decimal has at most 10 significant digits, so it is the shortest one that
 * names the double, which is what JavaScript writes. Other values are converted as they are.
 */
function milliseconds(micros: number): string {
  if (!(micros >= 0 && micros < 0x40000000 && Number.isInteger(micros))) return asNumber(micros / 1000);
  const whole = (micros / 1000) | 0;
  const fraction = (micros - whole * 1000) | 0;
  if (fraction === 0) return '' + whole;
  if (fraction % 100 === 0) return whole + '.' + fraction / 100;
  if (fraction % 10 === 0) return whole + (fraction < 100 ? '.0' : '.') + fraction / 10;
  return whole + (fraction < 10 ? '.00' : fraction < 100 ? '.0' : '.') + fraction;
}

/** A number as pino writes it (not finite: null). */
function asNumber(value: number): string {
  return Number.isFinite(value) ? '' + value : 'null';
}

/** A string as pino's `asString` writes it (pino/lib/tools.js). */
function asString(str: string): string {
  return '"' + stringBody(str) + '"';
}

/**
 * What pino's `asString` writes between the quotes: up to 100 characters without control characters, the
 * string with its quotes and backslashes escaped; otherwise `JSON.stringify`'s.
 */
function stringBody(str: string): string {
  const l = str.length;
  if (l > 100) return JSON.stringify(str).slice(1, -1);
  let result = '';
  let last = 0;
  let found = false;
  let point = 255;
  for (let i = 0; i < l && point >= 32; i++) {
    point = str.charCodeAt(i);
    if (point === 34 || point === 92) {
      result += str.slice(last, i) + '\\';
      last = i;
      found = true;
    }
  }
  if (point < 32) return JSON.stringify(str).slice(1, -1);
  return found ? result + str.slice(last) : str;
}
