// @n8n/db and n8n's own package.json are loaded from the running n8n's install, not dependencies of
// the package.
declare module '@n8n/db';
declare module 'n8n/package.json';
