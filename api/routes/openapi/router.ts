import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Router from '@koa/router';
import { ENGRAM_VERSION as packageVersion } from '../../../core/version.js';
import { buildOpenApiDocument } from '../../openapi/document.js';

const require = createRequire(import.meta.url);
/** Swagger UI's prebuilt assets, served from node_modules: the playground works offline. */
const assetsDir: string = require('swagger-ui-dist').getAbsoluteFSPath();

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Engram API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="playground"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// Kept out of the page so a strict Content-Security-Policy (no inline scripts) can apply.
const init = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#playground',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  validatorUrl: null,
});
`;

/** `GET /openapi.json` (the live specification) and the `/docs` playground; no key needed. */
export function openApiRoutes(): Router {
  const router = new Router();
  let document: string | null = null;

  router.get('/openapi.json', (ctx) => {
    // Built lazily once: the document only depends on the code.
    document ??= JSON.stringify(buildOpenApiDocument({ version: packageVersion }));
    ctx.type = 'application/json';
    ctx.body = document;
  });

  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'");
    ctx.body = page;
  });
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = init;
  });
  router.get('/docs/assets/:file', (ctx) => {
    const type = assets[ctx.params.file];
    if (!type) return; // falls through to 404
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = createReadStream(join(assetsDir, ctx.params.file));
  });
  return router;
}

