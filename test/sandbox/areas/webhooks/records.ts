import type { WebhookPayload } from './model';

/** A status-change notification; webhookDelivery.ts sends it. */
export interface WebhookEvent {
	/** evt_000001, …: creation order. */
	id: string;
	p_order_id: string;
	/** urls.webhook_url of the order, else settings.defaultWebhookUrl; '' = nowhere to send. */
	url: string;
	payload: WebhookPayload;
	createdAt: number;
	/** Not yet delivered or failed (true while retrying); false from the start when url is ''. */
	pending: boolean;
	/** none: no URL; pending: waiting or retrying; delivered: a 2xx came; failed: gave up. */
	delivery: 'none' | 'pending' | 'delivered' | 'failed';
	/** Attempts so far (refusals and duplicates included). */
	attempts: number;
}

/** One delivery attempt, as tests read it from state.webhookAttempts. */
export interface WebhookAttempt {
	eventId: string;
	url: string;
	/** 1-based count over the event's life (redeliveries continue it). */
	attempt: number;
	/** 2xx answer. */
	ok: boolean;
	/** HTTP status when an answer came. */
	status?: number;
	/** Why no answer counted: refused, timeout, connection error. */
	error?: string;
	/** The extra copy sent by the webhookDuplicate setting. */
	duplicate?: boolean;
	/** Start, epoch ms. */
	at: number;
	durationMs: number;
}
