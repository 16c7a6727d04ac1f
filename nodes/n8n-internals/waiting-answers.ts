/**
 * What n8n answers at a waiting execution's address (`/webhook-waiting/<id>`) when that execution
 * does not take the request itself: n8n's WaitingWebhooks.executeWebhook, the same in n8n 1.123.x
 * and 2.x (its response errors, serialised as `{ code, message }`):
 * - 404 `{ code: 404 }`: no such execution (deleted), or it waits in no webhook of this path and
 *   method (it waits elsewhere now): either way it no longer waits for this request → ended;
 * - 409 `{ code: 409 }` for three states: running (`The execution "<id>" is running already.`),
 *   finished with an error, finished (`…has finished already.`). Status and shape are the same for
 *   all three and n8n says nothing more, so only its message tells running from ended;
 * - 401 `{ error: 'Invalid token' }`: n8n 2.x checks the resume URL's token (1.123.x only for its
 *   send-and-wait nodes) → refused.
 * A 2xx answer is the waiting node's own (its webhook ran). Anything else is not n8n's answer of a
 * waiting execution as this package knows it → unknown (the caller tries again later).
 */
export type WaitingAnswer = 'taken' | 'running' | 'ended' | 'refused' | 'unknown';

/** n8n's serialised response error: `code` repeats the HTTP status. */
const isResponseError = (status: number, body: Record<string, unknown>) =>
	body.code === status && typeof body.message === 'string';

/** n8n's 409 texts (ConflictError in WaitingWebhooks.executeWebhook). */
const RUNNING = /^The execution "[^"]*" is running already\.$/;
const FINISHED = /^The execution "[^"]*"? has finished (?:already|with error)\.$/;

/** What n8n's answer at a waiting execution's address says of that execution. */
export function waitingAnswer(statusCode: number, body: unknown): WaitingAnswer {
	const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
	if (statusCode >= 200 && statusCode < 300) return 'taken';
	if (statusCode === 401 && fields.error === 'Invalid token') return 'refused';
	if (!isResponseError(statusCode, fields)) return 'unknown';
	if (statusCode === 404) return 'ended';
	if (statusCode !== 409) return 'unknown';
	const message = String(fields.message);
	if (RUNNING.test(message)) return 'running';
	return FINISHED.test(message) ? 'ended' : 'unknown';
}
