// ioredis is loaded from the running n8n's install (queue-redis.ts), not a dependency of the package.
declare module 'ioredis';
