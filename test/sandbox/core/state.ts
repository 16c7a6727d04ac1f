import { randomBytes } from 'node:crypto';

import { generateTransactions } from './generate';
import { HttpError } from './http';
import { completeOrder, type CompleteOutcome, type CompleteResult } from '../areas/payments/model';
import { PayoutCallbacks, type PayoutBatch } from '../areas/payouts/model';
import {
	defaultPayoutSettings,
	payoutSettingRule,
	type PayoutSettings,
} from '../areas/payouts/settings';
import type { StoredDocument } from '../areas/documents/records';
import type { InvoiceItemRecord } from '../areas/invoiceItems/records';
import type { OrderRecord, PaymentToken } from '../areas/orders/records';
import type { PaymentLinkRecord, PaymentLinkUpload } from '../areas/paymentLinks/records';
import type { SubscriptionPlanRecord } from '../areas/subscriptions/records';
import { newestFirst, type TransactionRecord } from '../areas/transactions/records';
import type { WebhookAttempt, WebhookEvent } from '../areas/webhooks/records';
import type { WebhookPayload } from '../areas/webhooks/model';

// Records live with their areas; these re-exports keep one import for the whole state.
export * from '../areas/documents/records';
export * from '../areas/invoiceItems/records';
export * from '../areas/orders/records';
export * from '../areas/paymentLinks/records';
export * from '../areas/subscriptions/records';
export * from '../areas/transactions/records';
export * from '../areas/webhooks/records';

/** Merchant account switches; tests change them directly or via PUT /__sandbox/settings. */
export interface MerchantSettings extends PayoutSettings {
	/** CAUTH (pay by token) MID enabled; off: CAUTH orders get 403. */
	cauthEnabled: boolean;
	/** Split payment feature; off: split orders get 403. */
	splitEnabled: boolean;
	/** Live mode of the merchant account (webhooks still say is_live false). */
	liveMode: boolean;
	/** The spec's "split works in live mode only"; off by default so splits can be tried. */
	splitRequiresLive: boolean;
	allowVoid: boolean;
	allowRefunds: boolean;
	/** PSP of new orders and of new tokens; tokens of another PSP are rejected. */
	currentPsp: string;
	/** Document upload answers 203 for transactions of these PSPs. */
	documentUnsupportedPsps: string[];
	/** Document upload answers 205 for transactions of these PSPs. */
	terminalMissingPsps: string[];
	/** The next N otherwise valid document uploads answer 103. */
	failNextDocumentUploads: number;
	/** Payment link bulk upload: these spreadsheet rows fail with a storage error. */
	paymentLinkStorageFailRows: number[];
	/** Used when an order sets no urls.webhook_url. */
	defaultWebhookUrl: string;
	/** auto: each stored event is delivered at once; manual: only via deliverPending / redeliver. */
	webhookDelivery: 'auto' | 'manual';
	/** Per attempt, connect to end of response; longer counts as a failed attempt. */
	webhookTimeoutMs: number;
	/** Multiplies the retry delays (WEBHOOK_RETRY_DELAYS_MS) so tests can wait milliseconds. */
	webhookRetryDelayScale: number;
	/** Sends each delivered event once more, as the service's retries may. */
	webhookDuplicate: boolean;
	/** Used when an order's redirect URL is empty; default: the checkout's result pages. */
	defaultUrls: { success: string; cancel: string; failure: string };
}

export function defaultSettings(checkoutUrl: string): MerchantSettings {
	return {
		cauthEnabled: true,
		splitEnabled: true,
		liveMode: false,
		splitRequiresLive: false,
		allowVoid: true,
		allowRefunds: true,
		currentPsp: 'MPGS',
		documentUnsupportedPsps: ['NI'],
		terminalMissingPsps: [],
		failNextDocumentUploads: 0,
		...defaultPayoutSettings(),
		paymentLinkStorageFailRows: [],
		defaultWebhookUrl: '',
		webhookDelivery: 'auto',
		webhookTimeoutMs: 5000,
		webhookRetryDelayScale: 1,
		webhookDuplicate: false,
		defaultUrls: {
			success: `${checkoutUrl}/result/success`,
			cancel: `${checkoutUrl}/result/cancel`,
			failure: `${checkoutUrl}/result/failure`,
		},
	};
}

export interface StateOptions {
	seed: number;
	transactionCount: number;
	tokenLifetimeSeconds: number;
}

export class SandboxState {
	readonly seed: number;

	readonly tokenLifetimeSeconds: number;

	/** Always sorted by `newestFirst`; add through addTransaction to keep it so. */
	readonly transactions: TransactionRecord[];

	readonly transactionsByPOrderId = new Map<string, TransactionRecord>();

	readonly transactionsById = new Map<string, TransactionRecord>();

	/** Keyed by data_id, in creation order. Empty at start. */
	readonly invoiceItems = new Map<string, InvoiceItemRecord>();

	/** Keyed by data_id. Empty at start. */
	readonly paymentLinks = new Map<string, PaymentLinkRecord>();

	/** Accepted payment link bulk uploads, oldest first. */
	readonly paymentLinkUploads: PaymentLinkUpload[] = [];

	/** Created subscription plans by data_id. */
	readonly subscriptionPlans = new Map<string, SubscriptionPlanRecord>();

	/** Display sequences (item_id, plan_id, link ids) by name. */
	private readonly sequences = new Map<string, number>();

	/** Issued payout bearer tokens: token → expiry (epoch ms). */
	readonly payoutTokens = new Map<string, number>();

	/** Accepted bulk payouts by request_id (uploaded file included). */
	readonly payoutBatches = new Map<string, PayoutBatch>();

	/** Scheduled callback_url POSTs of accepted batches; stop() cancels them. */
	readonly payoutCallbacks = new PayoutCallbacks();

	/** Hosted checkout address ({checkout_url}); set by startSandbox once the port is known. */
	checkoutUrl = '';

	readonly settings: MerchantSettings = defaultSettings('');

	/** Card tokens: m_payment_token → token. Seeded from the generated transactions. */
	readonly tokens = new Map<string, PaymentToken>();

	/** Created orders by p_order_id; their transactions are in `transactions` too. */
	readonly orders = new Map<string, OrderRecord>();

	/** Webhook events, oldest first. */
	readonly events: WebhookEvent[] = [];

	/** Every webhook delivery attempt, oldest first. */
	readonly webhookAttempts: WebhookAttempt[] = [];

	/** Called for each stored event; startSandbox hooks delivery in here. */
	onEvent?: (event: WebhookEvent) => void;

	/** Accepted document uploads, oldest first. */
	readonly documents: StoredDocument[] = [];

	/** Every m_order_id in use (seeded and created): reuse is rejected. */
	readonly mOrderIds = new Set<string>();

	private nextIds: { pOrder: number; request: number; transaction: number };

	private eventCount = 0;

	constructor(options: StateOptions) {
		this.seed = options.seed;
		this.tokenLifetimeSeconds = options.tokenLifetimeSeconds;
		this.transactions = generateTransactions(options.seed, options.transactionCount);
		let [pOrder, request, transaction] = [49_999_999, 899_999, 2_699_999_999];
		for (const record of this.transactions) {
			this.index(record);
			this.mOrderIds.add(record.m_order_id);
			pOrder = Math.max(pOrder, Number(record.p_order_id));
			request = Math.max(request, record.p_request_id);
			transaction = Math.max(transaction, Number(record.transaction_id));
			if (record.m_payment_token && !this.tokens.has(record.m_payment_token)) {
				this.tokens.set(record.m_payment_token, seededToken(record, this.settings.currentPsp));
			}
		}
		// New ids continue above the seeded ones (from round numbers for usual sizes).
		this.nextIds = { pOrder: pOrder + 1, request: request + 1, transaction: transaction + 1 };
	}

	/** Called once the server listens: the checkout URL and the settings that depend on it. */
	attach(checkoutUrl: string): void {
		this.checkoutUrl = checkoutUrl;
		this.resetSettings();
	}

	/** Back to the defaults; the settings object keeps its identity. */
	resetSettings(): MerchantSettings {
		return Object.assign(this.settings, defaultSettings(this.checkoutUrl));
	}

	/**
	 * JSON merge of a partial settings object (defaultUrls merged key by key). Checks names and
	 * types first, so a bad patch changes nothing; throws TypeError.
	 */
	updateSettings(patch: unknown): MerchantSettings {
		if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
			throw new TypeError('settings must be a JSON object');
		}
		const next = structuredClone(this.settings);
		const target = next as unknown as Record<string, unknown>;
		for (const [name, value] of Object.entries(patch)) {
			const current = target[name];
			const fail = (rule: string) => {
				throw new TypeError(`settings.${name} must be ${rule}`);
			};
			if (current === undefined) throw new TypeError(`unknown setting ${name}`);
			const payoutRule = payoutSettingRule(name, value);
			if (name === 'paymentLinkStorageFailRows') {
				const rows = Array.isArray(value) && value.every((v) => Number.isInteger(v) && v >= 2);
				if (!rows) fail('an array of spreadsheet row numbers (2 or more)');
			} else if (Array.isArray(current)) {
				const strings = Array.isArray(value) && value.every((v) => typeof v === 'string');
				if (!strings) fail('an array of strings');
			} else if (payoutRule !== undefined) {
				fail(payoutRule);
			} else if (name === 'failNextDocumentUploads') {
				if (!Number.isInteger(value) || (value as number) < 0) fail('a non-negative integer');
			} else if (name === 'webhookTimeoutMs') {
				if (!Number.isInteger(value) || (value as number) < 1) fail('a positive integer');
			} else if (name === 'webhookRetryDelayScale') {
				const scale = value as number;
				if (typeof scale !== 'number' || !Number.isFinite(scale) || scale < 0) {
					fail('a non-negative number');
				}
			} else if (name === 'webhookDelivery') {
				if (value !== 'auto' && value !== 'manual') fail("'auto' or 'manual'");
			} else if (name === 'defaultUrls') {
				const urls = value as Record<string, unknown>;
				const keys = ['success', 'cancel', 'failure'];
				const ok =
					typeof urls === 'object' &&
					urls !== null &&
					Object.entries(urls).every(([k, v]) => keys.includes(k) && typeof v === 'string');
				if (!ok) fail('an object of success, cancel and failure URLs');
				Object.assign(next.defaultUrls, urls);
				continue;
			} else if (typeof value !== typeof current) {
				fail(`a ${typeof current}`);
			}
			target[name] = value;
		}
		return Object.assign(this.settings, next);
	}

	/** Fresh ids for a created order. */
	allocateIds(): { p_order_id: string; p_request_id: number; transaction_id: string } {
		const ids = this.nextIds;
		return {
			p_order_id: String(ids.pOrder++),
			p_request_id: ids.request++,
			transaction_id: String(ids.transaction++),
		};
	}

	/** Adds (or replaces) a token; unset fields get a VISA test card on the current PSP. */
	addToken(
		input: Partial<PaymentToken> & { m_customer_id: string; token?: string },
	): PaymentToken & { token: string } {
		const { token = `tok_${randomBytes(12).toString('hex')}`, ...fields } = input;
		const value: PaymentToken = {
			psp: this.settings.currentPsp,
			mitEligible: true,
			scheme: 'VISA',
			mask_card_number: '411111XXXXXX1111',
			card_country: 'AE',
			card_type: 'CREDIT',
			expiry_month: '12',
			expiry_year: '2030',
			...fields,
		};
		this.tokens.set(token, value);
		return { token, ...value };
	}

	/** Makes a token (in)eligible for merchant-initiated payment; false = mandate not registered. */
	setTokenEligible(token: string, mitEligible: boolean): void {
		const found = this.tokens.get(token);
		if (!found) throw new Error(`unknown token ${token}`);
		found.mitEligible = mitEligible;
	}

	/** Completes a hosted payment without a browser; same rules as the page. Throws HttpError. */
	completeOrder(
		pOrderId: string,
		outcome: CompleteOutcome,
		card?: string,
		otp?: string,
	): CompleteResult {
		return completeOrder(this, pOrderId, outcome, card, otp);
	}

	/** Appends a webhook event for the order's current state (see webhooks.ts). */
	addEvent(pOrderId: string, url: string, payload: WebhookPayload, now = Date.now()): WebhookEvent {
		this.eventCount += 1;
		const event: WebhookEvent = {
			id: `evt_${String(this.eventCount).padStart(6, '0')}`,
			p_order_id: pOrderId,
			url,
			payload,
			createdAt: now,
			pending: url !== '',
			delivery: url === '' ? 'none' : 'pending',
			attempts: 0,
		};
		this.events.push(event);
		this.onEvent?.(event);
		return event;
	}

	/** Events so far, 1-based; picks the transaction_time form of the next one. */
	get eventsCreated(): number {
		return this.eventCount;
	}

	eventsOf(pOrderId: string): WebhookEvent[] {
		return this.events.filter((event) => event.p_order_id === pOrderId);
	}

	/** Inserts at the position that keeps `transactions` newest first. */
	addTransaction(record: TransactionRecord): void {
		if (this.transactionsByPOrderId.has(record.p_order_id)) {
			throw new Error(`duplicate p_order_id ${record.p_order_id}`);
		}
		let low = 0;
		let high = this.transactions.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (newestFirst(this.transactions[mid], record) <= 0) low = mid + 1;
			else high = mid;
		}
		this.transactions.splice(low, 0, record);
		this.index(record);
	}

	issuePayoutToken(now = Date.now()): { token: string; expiresAt: number } {
		const token = randomBytes(24).toString('base64url');
		const expiresAt = now + this.tokenLifetimeSeconds * 1000;
		this.payoutTokens.set(token, expiresAt);
		return { token, expiresAt };
	}

	isPayoutTokenValid(token: string, now = Date.now()): boolean {
		const expiresAt = this.payoutTokens.get(token);
		return expiresAt !== undefined && expiresAt > now;
	}

	/** Makes every issued token expired (kept, so clients see "expired", as after the lifetime). */
	expirePayoutTokens(): void {
		for (const token of this.payoutTokens.keys()) this.payoutTokens.set(token, 0);
	}

	/** 1, 2, 3, … per name. */
	nextSequence(name: string): number {
		const next = (this.sequences.get(name) ?? 0) + 1;
		this.sequences.set(name, next);
		return next;
	}

	/** Deactivated → Active (no endpoint: the spec does not show one). Throws HttpError. */
	reactivateLink(dataId: string): PaymentLinkRecord {
		const link = this.paymentLinks.get(dataId);
		if (!link) throw new HttpError(404, `Payment link ${dataId} not found`);
		if (link.status === 'Expired') {
			throw new HttpError(409, 'An expired payment link cannot be reactivated');
		}
		if (link.status === 'Active') throw new HttpError(409, 'Payment link is already active');
		link.status = 'Active';
		return link;
	}

	/** Marks a link expired, whatever its state; expired links stay so. Throws HttpError. */
	expireLink(dataId: string): PaymentLinkRecord {
		const link = this.paymentLinks.get(dataId);
		if (!link) throw new HttpError(404, `Payment link ${dataId} not found`);
		link.status = 'Expired';
		return link;
	}

	summary() {
		const byStatus: Record<string, number> = {};
		for (const t of this.transactions) byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
		const count = <T>(values: Iterable<T>, keep: (v: T) => boolean) =>
			[...values].filter(keep).length;
		return {
			seed: this.seed,
			transactions: this.transactions.length,
			transactionsByStatus: byStatus,
			invoiceItems: {
				total: this.invoiceItems.size,
				active: count(this.invoiceItems.values(), (i) => i.status === 'Active'),
			},
			paymentLinks: {
				total: this.paymentLinks.size,
				active: count(this.paymentLinks.values(), (l) => l.status === 'Active'),
				uploads: this.paymentLinkUploads.length,
			},
			subscriptionPlans: this.subscriptionPlans.size,
			payoutTokens: {
				issued: this.payoutTokens.size,
				valid: count(this.payoutTokens.keys(), (t) => this.isPayoutTokenValid(t)),
			},
			orders: this.orders.size,
			tokens: this.tokens.size,
			events: { total: this.events.length, pending: count(this.events, (e) => e.pending) },
			documents: this.documents.length,
		};
	}

	private index(record: TransactionRecord): void {
		this.transactionsByPOrderId.set(record.p_order_id, record);
		this.transactionsById.set(record.transaction_id, record);
	}
}

/** A generated transaction's card as a token; the expiry derives from the PAN (reproducible). */
function seededToken(record: TransactionRecord, psp: string): PaymentToken {
	const digits = record.internal.card_pan;
	const card = record.payment_method_data;
	return {
		m_customer_id: record.m_customer_id ?? '',
		psp,
		mitEligible: true,
		scheme: card.scheme,
		mask_card_number: card.masked_pan,
		card_country: card.card_country,
		card_type: card.card_type,
		expiry_month: String((Number(digits.slice(-2)) % 12) + 1).padStart(2, '0'),
		expiry_year: String(2027 + (Number(digits.slice(-3, -2)) % 5)),
	};
}
