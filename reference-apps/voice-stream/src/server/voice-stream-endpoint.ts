import { Context, WebSocket, WebSocketConnection } from 'rest.uws';
import type { VoiceEngines } from '../engines/voice-engines';
import type { ErrorPayload } from '../protocol/messages';
import type { SessionLimits } from '../session/session-limits';
import { VoiceSession } from '../session/voice-session';
import type { AttachedStream, RegisteredSession, SessionRegistry } from './session-registry';
import { STREAM_PATH } from './streaming-url';

/** The session a valid token opens; provided during the upgrade, so an invalid token never upgrades. */
export class StreamTicket {
  constructor(readonly session: RegisteredSession) {}
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
// gets the spec's error message rather than a bare 1009 close.
const MAX_FRAME_BYTES = 1024 * 1024;

/** `wss://host/v3/voice/realtime/connect?token=...`: one VoiceSession per connection. */
@WebSocket(STREAM_PATH, {
  maxPayloadLength: MAX_FRAME_BYTES,
  // The session enforces the spec's 30 s and 1 h itself (with an error message); these are safety nets.
  idleTimeout: 120,
  maxLifetime: 62,
  sendPingsAutomatically: true,
  maxBackpressure: 8 * 1024 * 1024,
})
export class VoiceStreamEndpoint {
  constructor(
    private readonly engines: VoiceEngines,
    private readonly registry: SessionRegistry,
    private readonly limits: Partial<SessionLimits> = {},
  ) {}

  open(connection: WebSocketConnection, @Context() ticket: StreamTicket): void {
    const registered = ticket.session;
    const session = new VoiceSession(
      registered.config,
      this.engines,
      {
        send: (message) => {
          const frame = session.codec.encode(message);
          const status = connection.send(frame.data);
          if (status === 'dropped') {
            // The client stopped reading: more than maxBackpressure is waiting.
            session.disconnect();
            connection.close(4429, 'client does not read fast enough');
          }
        },
        close: (error) => connection.close(closeCodeFor(error), error ? error.error_message : 'end of stream'),
      },
      { limits: this.limits },
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
    this.registry.attach(registered.id, stream);
    void session.done.then(() => this.registry.detach(registered.id, stream, session.outcome !== 'disconnected'));
  }

  message(connection: WebSocketConnection, data: string | Buffer, isBinary: boolean): void {
    (connection.data.session as VoiceSession | undefined)?.receiveFrame(data, isBinary);
  }

  close(connection: WebSocketConnection): void {
    (connection.data.session as VoiceSession | undefined)?.disconnect();
  }
}
