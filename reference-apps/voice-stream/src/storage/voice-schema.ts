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
  /** Audio-file translation jobs (`/v1/jobs/voice/translate`), each of one API key; also the work queue. */
  voice_jobs: {
    id: string;
    owner_id: string;
    /** The create request as accepted (JSON: source_file, parameters, targets). */
    request: string;
    /** Key of the job's upload and download signatures (HMAC-SHA256), base64url. */
    secret: string;
    /** pending (awaiting upload), uploaded (queued), processing, complete, failed. */
    status: string;
    /** Per-target results (JSON array of {status, error?, bytes?}), parallel to the request's targets. */
    results: string;
    /** Bytes of the uploaded source file. */
    source_bytes: number | null;
    /** Duration of the source audio as probed at upload. */
    duration_ms: number | null;
    /** Source audio decoded and recognised so far (progress). */
    processed_ms: number;
    storage_used: number;
    /** Why the job failed, for its owner. */
    error: string | null;
    /** Times processing started (a job interrupted by a crash is started again). */
    attempts: number;
    /** The worker processing it, and until when its claim holds without a heartbeat. */
    lease_owner: string | null;
    lease_until: number | null;
    created_at: number;
    updated_at: number;
    /** Pending: the end of the upload window; later: when the job and its files are deleted. */
    expires_at: number;
  };
}
