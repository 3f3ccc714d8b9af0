import { classMetadata, errors } from '../../plugin';

/** Metadata key of `@ApiMessages` (a class extension of a `@WebSocket` endpoint). */
export const API_MESSAGES = Symbol('rest.uws:api-messages');

/**
 * One message of a WebSocket endpoint: a class (a DTO: its schema comes from its class-validator decorators), or
 * a JSON Schema with texts.
 */
export type ApiMessage =
  | Function
  | {
      /** The payload's JSON Schema; may `$ref` a schema of the document (`#/components/schemas/Name`). */
      schema?: Record<string, unknown>;
      /** The payload's class, instead of `schema`. */
      type?: Function;
      /** A human title (`Source Media Chunk`). */
      title?: string;
      /** What the message means (CommonMark). */
      description?: string;
      /** Default `application/json` (a text frame). */
      contentType?: string;
      /** Example payloads. */
      examples?: unknown[];
    };

/** The messages of a WebSocket endpoint, by name, from the server's side. */
export interface ApiMessagesOptions {
  /** What the endpoint receives (the client sends), by message name. */
  receive?: Record<string, ApiMessage>;
  /** What the endpoint sends (the client receives), by message name. */
  send?: Record<string, ApiMessage>;
  /** What the channel is for (CommonMark). */
  description?: string;
}

/**
 * Declares the messages of a `@WebSocket` endpoint, for its AsyncAPI document and typed clients. Each message is
 * a JSON text frame whose payload is described by a class or a JSON Schema.
 *
 * ```ts
 * @WebSocket('/rooms/{room}')
 * @ApiMessages({ receive: { Say: SayMessage }, send: { Said: SaidMessage, Joined: { schema: { type: 'object' } } } })
 * class RoomEndpoint { ... }
 * ```
 */
export function ApiMessages(options: ApiMessagesOptions): ClassDecorator {
  const fail = (why: string): never => {
    throw errors.RU_ERR_ASYNCAPI(`rest.uws: @ApiMessages ${why}`);
  };
  if (options === null || typeof options !== 'object') fail('takes { receive?, send?, description? }');
  for (const key of Object.keys(options))
    if (key !== 'receive' && key !== 'send' && key !== 'description')
      fail(`has no option ${JSON.stringify(key)} (receive, send, description)`);
  for (const side of ['receive', 'send'] as const) {
    const messages = options[side];
    if (messages === undefined) continue;
    if (messages === null || typeof messages !== 'object') fail(`${side} must map message names to messages`);
    for (const [name, message] of Object.entries(messages)) {
      if (!/^[A-Za-z0-9._-]+$/.test(name))
        fail(`${side}: message name ${JSON.stringify(name)} must be letters, digits, ".", "_" or "-"`);
      if (typeof message === 'function') continue;
      if (message === null || typeof message !== 'object') fail(`${side}.${name} must be a class or { schema }`);
      if ((message.schema === undefined) === (message.type === undefined))
        fail(`${side}.${name} needs exactly one of schema (a JSON Schema) or type (a class)`);
      if (message.schema !== undefined && (message.schema === null || typeof message.schema !== 'object'))
        fail(`${side}.${name}.schema must be a JSON Schema object`);
      if (message.type !== undefined && typeof message.type !== 'function')
        fail(`${side}.${name}.type must be a class`);
    }
  }
  return (target) => {
    classMetadata(target).extensions.set(API_MESSAGES, {
      receive: { ...(options.receive ?? {}) },
      send: { ...(options.send ?? {}) },
      description: options.description,
    } satisfies ApiMessagesOptions);
  };
}
