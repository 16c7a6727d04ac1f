import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { ServiceFailure } from './errors';
import type { MultipartPart } from './multipart';

export type Channel =
	| 'hosted'
	| 'sdk'
	| 's2s'
	| 'paymentLink'
	| 'subscription'
	| 'invoice'
	| 'pos'
	| 'payout';

export const CREDENTIAL_TYPES: Record<Channel, string> = {
	hosted: 'paymentGatewayHostedApi',
	sdk: 'paymentGatewaySdkApi',
	s2s: 'paymentGatewayS2sApi',
	paymentLink: 'paymentGatewayPaymentLinkApi',
	subscription: 'paymentGatewaySubscriptionApi',
	invoice: 'paymentGatewayInvoiceApi',
	pos: 'paymentGatewayPosApi',
	payout: 'paymentGatewayPayoutApi',
};

export interface RequestSpec {
	channel: Channel;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	multipart?: MultipartPart[];
	/**
	 * True when sending the request again cannot move money twice: every read, and the writes the
	 * service refuses to repeat (an order carrying an m_order_id, a payout batch's request_id).
	 * A 429 is retried whatever this says: the service refused without acting.
	 */
	retrySafe: boolean;
	/**
	 * Writes: how a user finds out whether this write went through when its answer was lost, said
	 * after "may have been processed:" (for example "look the order up with Transaction > Get").
	 */
	howToCheck?: string;
	/** What a bare 400 from this endpoint usually means (the causes the service names for it). */
	badRequestCauses?: string;
	/** What this endpoint's own failure codes mean; general codes are the transport's. */
	codes?: Record<string, string>;
	/** Failure bodies that the operation turns into an outcome itself (e.g. a declined card). */
	acceptFailure?: (failure: ServiceFailure) => boolean;
	/** A clearer message or description for failures the operation knows in context. */
	explainFailure?: (
		failure: ServiceFailure,
	) => { message?: string; description?: string } | undefined;
	/**
	 * The node repeated this request after an attempt whose answer was lost (a 5xx or a dropped
	 * connection), and the service refused the repeat: when that refusal says "already done", the
	 * first attempt went through. Returns what to report instead of a failure.
	 */
	confirmDuplicate?: (failure: ServiceFailure) => IDataObject | undefined;
}
