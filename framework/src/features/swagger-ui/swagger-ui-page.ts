/** The texts the plugin writes around swagger-ui-dist's files: the page, its start script, the OAuth2 redirect page. */

/** Where a page's files live: the plugin's base path and the swagger-ui-dist version in the asset URLs. */
export interface PageLocation {
  /** The page's path (`/docs`). */
  readonly base: string;
  /** The swagger-ui-dist version, part of every asset URL so the files can be cached for good. */
  readonly version: string;
}

function assetUrl(at: PageLocation, name: string): string {
  return `${at.base}/assets/${at.version}/${name}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page. No inline script or style of its own (a strict Content-Security-Policy holds), and every URL on the
 * app's own origin: nothing is fetched from elsewhere.
 */
export function pageHtml(at: PageLocation, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assetUrl(at, 'swagger-ui.css')}">
<link rel="icon" type="image/png" href="${assetUrl(at, 'favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${assetUrl(at, 'favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assetUrl(at, 'swagger-ui-bundle.js')}" charset="utf-8"></script>
<script src="${at.base}/swagger-initializer.js" charset="utf-8"></script>
</body>
</html>
`;
}

/**
 * The script that starts Swagger UI with the app's configuration. `validatorUrl: null` keeps Swagger UI from
 * sending the document to its public validator; the base layout has no box for loading other documents.
 */
export function initializerScript(at: PageLocation, config: Readonly<Record<string, unknown>>): string {
  return `"use strict";
window.addEventListener('load', function () {
  var config = ${JSON.stringify(config)};
  config.dom_id = '#swagger-ui';
  config.presets = [SwaggerUIBundle.presets.apis];
  config.layout = 'BaseLayout';
  config.oauth2RedirectUrl = new URL(${JSON.stringify(`${at.base}/oauth2-redirect.html`)}, window.location.href).href;
  window.ui = SwaggerUIBundle(config);
});
`;
}

/** The page an OAuth2 authorization server sends the browser back to (swagger-ui-dist's own script does the work). */
export function oauth2RedirectHtml(at: PageLocation): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>OAuth2 redirect</title></head>
<body>
<script src="${assetUrl(at, 'oauth2-redirect.js')}"></script>
</body>
</html>
`;
}

/**
 * The page's Content-Security-Policy: scripts and styles from the app only (Swagger UI sets inline styles on its
 * elements), images from the app or data URLs; "Try it out" may call the document's servers wherever they are.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src *; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";
