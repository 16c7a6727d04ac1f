import type { IExecuteFunctions } from 'n8n-workflow';

export const UNSIGNED_RESUME_URL_NOTE =
	'Payment Gateway, Wait for Payment: this n8n does not sign resume URLs (n8n 1.x and early 2.x releases do not; later 2.x releases do). ' +
	"Deliveries to them are still accepted only with the webhook credential's notification secret and for the awaited order.";

let told = false;

/**
 * n8n 1.x and early 2.x (2.0) put no signature on `$execution.resumeUrl`, so anyone who learns an execution's URL can
 * call it; the notification secret still guards what resumes it. Said once per process in n8n's
 * log, so the difference from later releases is not silent.
 */
export function noteUnsignedResumeUrl(ctx: IExecuteFunctions): void {
	if (told) return;
	let url = '';
	try {
		url = String(ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
	} catch {
		return; // no resume URL to judge (a run without an execution id)
	}
	if (url === '' || new URL(url, 'http://n8n.invalid').searchParams.has('signature')) return;
	told = true;
	ctx.logger.warn(UNSIGNED_RESUME_URL_NOTE);
}
