import { operationsBut } from '../actions/resources';

const CHANNEL_RESOURCES = ['order', 'payment', 'transaction'];

/**
 * Which credential the editor shows (the conditions of the node's credentials list), and the engine accepts, for each resource and operation.
 *
 * n8n's editor offers, in one selector, every credential type whose conditions name the
 * `authentication` parameter, pre-selects the newest credential among them and sets
 * `authentication` from the type picked. So only the three order channels name it, and exactly
 * one selector shows for every resource and operation:
 * - Order, Payment, Transaction: Hosted, S2S or SDK (one selector for the three). `pos` is listed
 *   with Hosted so that a version-1 node saved with the POS keys on an order shows a selector
 *   from which a working credential can be picked.
 * - Transaction > Get POS Order: POS only, by a `hide` on the other operations (a `show` on
 *   `operation` would make the editor hide Resource and Operation).
 * - The other resources: their own channel, by resource.
 */
export const CHANNEL_CREDENTIAL_CONDITIONS = {
	hosted: {
		show: { authentication: ['hosted', 'pos'], resource: CHANNEL_RESOURCES },
		hide: { operation: ['getPosOrder'] },
	},
	s2s: {
		show: { authentication: ['s2s'], resource: CHANNEL_RESOURCES },
		hide: { operation: ['getPosOrder'] },
	},
	sdk: {
		show: { authentication: ['sdk'], resource: CHANNEL_RESOURCES },
		hide: { operation: ['getPosOrder'] },
	},
	pos: {
		show: { resource: ['transaction'] },
		// Every Transaction operation but Get POS Order, read from the resource map.
		hide: { operation: operationsBut('transaction', ['getPosOrder']) },
	},
};
