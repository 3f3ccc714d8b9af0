import { ApiMessages, Context, WebSocket, WebSocketConnection } from 'rest.uws';
import { appTracer } from 'app-support/telemetry';
import { inject } from 'tsyringe';
import type { VoiceEngines } from '../engines/voice-engines';
import type { ErrorPayload } from '../domain/protocol/messages';
import type { SessionLimits } from '../domain/session/session-limits';
import { VoiceSession } from '../domain/session/voice-session';
import type { AttachedStream, ClaimedSession, SessionRegistry } from '../domain/registry/session-registry';
import type { CapacityReservation } from '../domain/session-capacity';
import { SESSION_LIMITS, SESSION_REGISTRY, VOICE_ENGINES } from './injection-tokens';
import { STREAM_MESSAGES } from './stream-messages';
import { STREAM_PATH } from './streaming-url';

/** The session a valid token opens; provided during the upgrade, so an invalid token never upgrades. */
export class StreamTicket {
  constructor(
    readonly session: ClaimedSession,
    /** The place held under the server's session limit. */
    readonly place: CapacityReservation,
  ) {}
}

/** Close codes: 1000 after end_of_stream; 4000 + the error's HTTP status after an `error` message. */
export function closeCodeFor(error: ErrorPayload | undefined): number {
  if (!error) return 1000;
  const code = 4000 + error.error_code;
  return code >= 4000 && code <= 4999 ? code : 4500;
}

/** Reconnection requested or session invalidated: closed without a stream message. */
export const DROPPED_CLOSE_CODE = 4001;

// A JSON chunk of 100 kB is ~137 kB of base64; larger frames must still reach the session so the client
// gets the spec's error message rather than a bare close. Beyond this, uWebSockets.js fails the connection.
const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * Output a client may leave unread (transcripts, audio, pongs to its pings) before its stream is ended with
 * 4429. uWebSockets.js's own limit (maxBackpressure, beyond which it silently drops messages) is twice this,
 * so the close frame still fits behind the unread data.
 */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** Close code for a client that does not read what it is sent. */
export const NOT_READING_CLOSE_CODE = 4429;

/** `wss://host/v3/voice/realtime/connect?token=...`: one VoiceSession per connection. */
@WebSocket(STREAM_PATH, {
  maxPayloadLength: MAX_FRAME_BYTES,
  // The session enforces the spec's 30 s and 1 h itself (with an error message); these are safety nets.
  idleTimeout: 120,
  maxLifetime: 62,
  sendPingsAutomatically: true,
  maxBackpressure: 2 * MAX_UNSENT_BYTES,
})
@ApiMessages(STREAM_MESSAGES)
export class VoiceStreamEndpoint {
  /** The sessions' spans when telemetry is on (app-support/telemetry); undefined: none. */
  private readonly tracer = appTracer('voice-stream');

  constructor(
    @inject(VOICE_ENGINES) private readonly engines: VoiceEngines,
    @inject(SESSION_REGISTRY) private readonly registry: SessionRegistry,
    @inject(SESSION_LIMITS) private readonly limits: Partial<SessionLimits>,
  ) {}

  open(connection: WebSocketConnection, @Context() ticket: StreamTicket): void {
    const registered = ticket.session;
    const releasePlace = ticket.place.take();
    const session = new VoiceSession(
      registered.config,
      this.engines,
      {
        send: (message) => {
          const frame = session.codec.encode(message);
          if (connection.send(frame.data) === 'dropped') endNotReading(connection);
          else stopIfNotReading(connection);
        },
        close: (error) => connection.close(closeCodeFor(error), error ? error.error_message : 'end of stream'),
      },
      { limits: this.limits, tracer: this.tracer },
    );
    const stream: AttachedStream = {
      drop: (reason, serverStopping) => {
        session.disconnect();
        connection.close(serverStopping ? 1001 : DROPPED_CLOSE_CODE, reason);
      },
    };
    connection.data.session = session;
    connection.data.stream = stream;
    connection.data.sessionId = registered.id;
    this.registry.attach(registered, stream);
    void session.done.then(() => {
      releasePlace();
      this.registry.detach(registered, stream, session.outcome !== 'disconnected');
    });
  }

  message(connection: WebSocketConnection, data: string | Buffer, isBinary: boolean): void {
    (connection.data.session as VoiceSession | undefined)?.receiveFrame(data, isBinary);
  }

  /** uWebSockets.js answers every ping with a pong: a client flooding pings without reading fills the buffer too. */
  ping(connection: WebSocketConnection): void {
    stopIfNotReading(connection);
  }

  close(connection: WebSocketConnection): void {
    (connection.data.session as VoiceSession | undefined)?.disconnect();
  }
}

/** Ends the stream of a client that leaves more than MAX_UNSENT_BYTES unread. */
function stopIfNotReading(connection: WebSocketConnection): void {
  if (connection.isOpen() && connection.getBufferedAmount() > MAX_UNSENT_BYTES) endNotReading(connection);
}

function endNotReading(connection: WebSocketConnection): void {
  const unsent = connection.getBufferedAmount();
  (connection.data.session as VoiceSession | undefined)?.disconnect();
  connection.close(NOT_READING_CLOSE_CODE, `The client does not read: ${unsent} bytes unsent`);
}
