import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** Credential fields whose values must never appear in an error, an error item or a log. */
const SECRET_FIELDS = [
	'merchantKey',
	'merchantSecret',
	'apiKey',
	'apiSecret',
	'accessToken',
	'sessionToken',
	'webhookSecret',
	'notificationSecret',
];

/** Shorter values could match ordinary words of a message; keys and secrets are longer. */
const MIN_SECRET_LENGTH = 6;

export const REDACTED = '[redacted]';

/** The credential's secret values, longest first (a secret may contain a shorter one). */
export function secretsOf(credentials: ICredentialDataDecryptedObject | undefined): string[] {
	if (!credentials) return [];
	const values = new Set<string>();
	for (const field of SECRET_FIELDS) {
		const value = credentials[field];
		if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) continue;
		values.add(value);
		// A cached payout token carries the address it was issued for: v1:<binding>:<token>.
		const bound = /^v1:[0-9a-f]+:(.+)$/.exec(value)?.[1];
		if (bound && bound.length >= MIN_SECRET_LENGTH) values.add(bound);
		// A bearer token sent as "Bearer <token>" or a key pair sent as Basic auth may come back encoded.
		values.add(Buffer.from(value, 'utf8').toString('base64'));
	}
	if (
		typeof credentials.merchantKey === 'string' &&
		typeof credentials.merchantSecret === 'string'
	) {
		const pair = `${credentials.merchantKey}:${credentials.merchantSecret}`;
		values.add(Buffer.from(pair, 'utf8').toString('base64'));
	}
	return [...values].sort((a, b) => b.length - a.length);
}

/** Secrets a run sends that are no credential's (the results address's token), per node context. */
const runSecrets = new WeakMap<object, Set<string>>();

export function addRunSecret(ctx: object, secret: string): void {
	if (secret.length < MIN_SECRET_LENGTH) return;
	const held = runSecrets.get(ctx) ?? new Set<string>();
	runSecrets.set(ctx, held.add(secret));
}

export const runSecretsOf = (ctx: object): string[] => [...(runSecrets.get(ctx) ?? [])];

/** Bearer tokens are redacted whatever they are: n8n may renew one during the request. */
const BEARER = /\b(Bearer\s+)[\w.~+/=-]{6,}/gi;

/** The text with every secret value replaced. */
export function redactText(text: string, secrets: string[]): string {
	let out = text.replace(BEARER, `$1${REDACTED}`);
	for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
	return out;
}

/** A deep copy of a JSON-like value with every secret value replaced, in keys and values. */
export function redactValue<T>(value: T, secrets: string[], depth = 0): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (typeof value !== 'object' || value === null || depth > 20) return value;
	if (Array.isArray(value))
		return value.map((entry) => redactValue(entry, secrets, depth + 1)) as T;
	const out: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
		out[redactText(key, secrets)] = redactValue(entry, secrets, depth + 1);
	}
	return out as T;
}

/** Scrubs an error built by this package in place: message, description, context and cause. */
export function redactError<E extends Error>(error: E, secrets: string[]): E {
	const record = error as unknown as Record<string, unknown>;
	error.message = redactText(error.message, secrets);
	if (typeof error.stack === 'string') error.stack = redactText(error.stack, secrets);
	for (const field of ['description', 'context', 'cause', 'errorResponse', 'messages']) {
		const value = record[field];
		if (value instanceof Error) redactError(value, secrets);
		else if (value !== undefined && value !== null) record[field] = redactValue(value, secrets);
	}
	return error;
}
