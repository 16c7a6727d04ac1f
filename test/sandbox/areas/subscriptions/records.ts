/** A created subscription plan; `request` is the accepted body verbatim. */
export interface SubscriptionPlanRecord {
	data_id: string;
	plan_id: string;
	link: string;
	/** Base64 PNG. */
	qr_code: string;
	request: Record<string, any>;
	createdAt: number;
}
