/**
 * The API key of a request: `Authorization: Bearer <key>` or `Headout-Auth: <key>` (the real partner API's header).
 * Header names are lower-case, as uWebSockets.js gives them. Returns undefined when neither carries a key.
 */
export function readApiKey(header: (lowerCaseName: string) => string | undefined): string | undefined {
  const authorization = header('authorization')?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (match) return match[1];
  }
  const headoutAuth = header('headout-auth')?.trim();
  return headoutAuth ? headoutAuth : undefined;
}

/** Why a request was not authenticated, for the 401 message. */
export function missingKeyMessage(header: (lowerCaseName: string) => string | undefined): string {
  const authorization = header('authorization')?.trim();
  if (authorization && !/^Bearer\s+\S+$/i.test(authorization)) {
    return 'Authorization header must use the Bearer scheme: "Authorization: Bearer <api key>"';
  }
  return 'Missing API key: send "Authorization: Bearer <api key>" or "Headout-Auth: <api key>"';
}

export const UNKNOWN_KEY_MESSAGE = 'Invalid API key: unknown or revoked';
