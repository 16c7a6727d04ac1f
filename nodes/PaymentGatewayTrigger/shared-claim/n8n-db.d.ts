// @n8n/db is loaded from the running n8n's install (shared-claim/executions.ts), not a dependency of the package.
declare module '@n8n/db';
