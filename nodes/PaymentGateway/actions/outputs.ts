import { WAIT_OUTPUTS } from './order/waitForPayment.outcome';
import { RESULTS_OUTPUTS } from './payout/waitForResults.outcome';

/** Operations with outputs of their own (each runs whole, outside the router's item loop). */
const OWN_OUTPUTS: Array<{ resource: string; operation: string; outputs: readonly string[] }> = [
	{ resource: 'order', operation: 'waitForPayment', outputs: WAIT_OUTPUTS },
	{ resource: 'payout', operation: 'waitForResults', outputs: RESULTS_OUTPUTS },
];

const named = (outputs: readonly string[]) =>
	JSON.stringify(outputs.map((displayName) => ({ type: 'main', displayName })));

/**
 * The node's outputs as n8n evaluates them: the named outputs of Wait for Payment and Wait for
 * Results, one unnamed output for every other operation. Resource defaults to order (version 1).
 */
export const NODE_OUTPUTS_EXPRESSION: `={{${string}}}` = `={{ ${OWN_OUTPUTS.map(
	({ resource, operation, outputs }) =>
		`($parameter["resource"] ?? "order") === "${resource}" && $parameter["operation"] === "${operation}" ? ${named(outputs)} : `,
).join('')}["main"] }}`;
