/**
 * The operations whose waiting node n8n runs again when its wait ends (the door's "time-out look",
 * ../../n8n-internals/time-out-look.ts): Order > Wait for Payment (its last look) and Payout > Wait
 * for Results (each check). Each registers itself with the note it leaves in its node context
 * before waiting; a waiting node of another operation, or one without its note, keeps n8n's own
 * time-out (its input items pass on output 0).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { n8nInternals, type WaitingNode } from '../../n8n-internals';

export interface TimeOutTurn {
	resource: string;
	operation: string;
	/** Whether the node context saved with the waiting execution holds this operation's note. */
	noted: (context: IDataObject | undefined) => boolean;
}

const turns = new Set<TimeOutTurn>();

/** From now on, a waiting node of this operation that noted its wait runs again at its time-out. */
export function registerTimeOutTurn(turn: TimeOutTurn): void {
	turns.add(turn);
}

/** Which waiting nodes n8n runs again at time-out: this node's registered operations, noted. */
export function runsAgainAtTimeOut({ node, context }: WaitingNode): boolean {
	if (!String(node.type).endsWith('.paymentGateway')) return false;
	const parameters = (node.parameters ?? {}) as IDataObject;
	const resource = parameters.resource ?? 'order';
	for (const turn of turns)
		if (turn.resource === resource && turn.operation === parameters.operation)
			return turn.noted(context);
	return false;
}

/**
 * This run's index among the node's runs in the execution: n8n drops the waiting run when the wait
 * ends, so the run at time-out has the index the waiting run noted.
 */
export const runIndexOf = (ctx: IExecuteFunctions): number =>
	Number(ctx.getWorkflowDataProxy(0).$runIndex);

let armed: Promise<boolean> | undefined;

/**
 * Has n8n run the registered waiting nodes again at time-out, in this process, from now on; true
 * where n8n offers it. Called when n8n loads the node (it does so before it runs a time-out) and
 * before each wait. Absent or changed: false, n8n's own time-out stays; n8n's log line names the
 * capability either way.
 */
export async function armTimeOutLook(): Promise<boolean> {
	armed ??= n8nInternals.timeOutLook().then(
		(look) => {
			if (look.found) look.use.select(runsAgainAtTimeOut);
			return look.found;
		},
		() => false,
	);
	return await armed;
}
