import type { Generated } from 'kysely';

/** Tables of the voice stream's database (Kysely types). Times are milliseconds since the epoch. */
export interface VoiceSchema {
  voice_api_keys: {
    id: string;
    key_hash: string;
    label: string;
    created_at: number;
    revoked_at: number | null;
  };
  /** Sessions between their request and their end (PostgreSQL only: with SQLite they live in memory). */
  voice_sessions: {
    id: string;
    owner_id: string;
    /** The session request body as accepted (JSON), validated again by the instance that runs the stream. */
    request: string;
    /** SHA-256 of the current token (tokens themselves are never stored). */
    token_hash: string;
    token_issued_at: number;
    token_used: boolean;
    /** The instance that consumed the token and holds (or held) the stream. */
    instance_id: string | null;
    /** Since when the session has no stream (claimed but not open yet, or client gone); null while streaming. */
    detached_at: number | null;
    created_at: number;
  };
  /** Every token a session was given, so that an outdated token is told from an unknown one. */
  voice_session_tokens: {
    token_hash: string;
    session_id: string;
    /** Issue order (bigserial; PostgreSQL returns it as a string). */
    seq: Generated<string>;
  };
  /** Instances alive (heartbeat): a session held by an instance not seen lately is treated as detached. */
  voice_instances: {
    id: string;
    started_at: number;
    seen_at: number;
  };
  /** Glossaries (`/v3/glossaries`), each of one API key. */
  voice_glossaries: {
    id: string;
    owner_id: string;
    name: string;
    created_at: number;
  };
  /** A glossary's dictionary for one language pair (lower-case base tags); entries as TSV, one per line. */
  voice_glossary_dictionaries: {
    glossary_id: string;
    source_lang: string;
    target_lang: string;
    entries: string;
    entry_count: number;
  };
  /** Spoken Terms collections (`/v3/spoken-terms`), each of one API key. */
  voice_spoken_terms: {
    id: string;
    owner_id: string;
    name: string;
    created_at: number;
  };
  /** A collection's terms for one language, one per line. */
  voice_spoken_term_lists: {
    spoken_terms_id: string;
    lang: string;
    entries: string;
    entry_count: number;
  };
}
