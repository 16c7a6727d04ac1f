/**
 * Late Status: the contract between an order created with *Late Status Trigger URL* and the Payment
 * Gateway Trigger at that URL. The order's webhook URL is the trigger's URL carrying the waiting
 * execution's resume URL in its query; the order side builds it (lateStatusUrl), the trigger reads
 * it (lateStatusTarget) and passes each status on to that execution while it waits, or runs its
 * own workflow with a final status that comes after the wait ended
 * (PaymentGatewayTrigger/late-status.ts).
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * The query parameter that carries the resume URL. Orders in flight were given URLs with it, so it
 * never changes.
 */
export const LATE_STATUS_QUERY = 'resume';

/** The order's webhook URL: the trigger's URL with the resume URL it passes each status on to. */
export function lateStatusUrl(triggerUrl: string, resumeUrl: string): string {
	const separator = triggerUrl.includes('?') ? '&' : '?';
	return `${triggerUrl}${separator}${LATE_STATUS_QUERY}=${encodeURIComponent(resumeUrl)}`;
}

/**
 * What a delivery's query says, read by the trigger whose own URL is `ownUrl`: no late status (a
 * plain delivery), the resume URL to pass it on to, or a resume URL refused because it is not an
 * address of this n8n (the trigger would otherwise post deliveries anywhere).
 */
export type LateStatusTarget = { resumeUrl: string } | { refused: string } | undefined;

export function lateStatusTarget(query: IDataObject, ownUrl: string): LateStatusTarget {
	const raw = query[LATE_STATUS_QUERY];
	if (typeof raw !== 'string' || raw === '') return undefined;
	try {
		const target = new URL(raw);
		if (target.origin === new URL(ownUrl).origin) return { resumeUrl: target.toString() };
	} catch {
		// Not a URL: refused like one of another host.
	}
	return { refused: 'a resume URL of another host was ignored' };
}

/** The execution ID in a resume URL (…/<id>?signature=…), for the late item. */
export function executionOf(resumeUrl: string): string {
	return new URL(resumeUrl).pathname.split('/').filter(Boolean).pop() ?? '';
}
