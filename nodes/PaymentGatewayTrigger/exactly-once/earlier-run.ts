/**
 * One policy, for both modes, for a delivery whose first receiver ended before n8n answered (its
 * claim was never decided): did that receiver's execution start? n8n's executions are the truth.
 * - an execution carries the delivery → it ran: this copy is a duplicate;
 * - none does → it never started: this copy runs;
 * - n8n offers no execution check here → this copy runs (the documented mode "… without execution
 *   check", named in n8n's log once): running twice is preferred to losing the delivery;
 * - the check failed (database busy) or n8n changed → cannot tell now: answered 503 and logged, so
 *   the service delivers it again and a later copy asks again.
 */
import type { Capability, ExecutionCheck } from '../../n8n-internals';

export type EarlierRun = 'ran' | 'not run' | 'cannot tell now';

/** Asks n8n's executions about one delivery; never rejects. */
export async function earlierRun(
	check: () => Promise<Capability<ExecutionCheck>>,
	warn: (message: string) => void,
	delivery: { workflowId: string; key: string },
	since: number,
	until: number,
): Promise<EarlierRun> {
	try {
		const capability = await check();
		if (!capability.found) return 'not run';
		const ran = await capability.use.carries(delivery.workflowId, delivery.key, since, until);
		return ran ? 'ran' : 'not run';
	} catch (error) {
		warn(
			`Payment Gateway Trigger: could not tell whether an unfinished delivery ran; answered 503 so it is delivered again: ${(error as Error).message}`,
		);
		return 'cannot tell now';
	}
}
