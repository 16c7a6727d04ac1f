// ioredis is loaded from the running n8n's install (shared-claim/redis.ts), not a dependency of the package.
declare module 'ioredis';
