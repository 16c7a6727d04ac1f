import { randomBytes } from 'node:crypto';

/**
 * The service gives m_order_id no format beyond "String, unique per order". A generated one keeps to
 * the narrowest identifier rule the service has (request_id: at most 30 characters), in letters,
 * digits and hyphens only, so no service-side format check can refuse it.
 */
export const GENERATED_ID_MAX_LENGTH = 30;

const PREFIX = 'n8n-';

/**
 * A Merchant Order ID for an order sent without one: the execution and item it belongs to, and a
 * random part, since an execution ID repeats across the calls of an AI agent's tool and a test
 * harness may have none. Made once per item before the first attempt, so the node's own repeats
 * carry it and the service's duplicate refusal settles a lost answer; a new run makes a new one.
 */
export function generateMerchantOrderId(
	executionId: string | undefined,
	itemIndex: number,
	random: string = randomBytes(4).toString('hex'),
): string {
	const run = (executionId ?? '').replace(/[^A-Za-z0-9]/g, '') || Date.now().toString(36);
	const tail = `-${itemIndex}-${random}`;
	const room = Math.max(1, GENERATED_ID_MAX_LENGTH - PREFIX.length - tail.length);
	return `${PREFIX}${run.slice(-room)}${tail}`.slice(0, GENERATED_ID_MAX_LENGTH);
}
