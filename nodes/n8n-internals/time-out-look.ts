/**
 * Capability "time-out look": a waiting node runs again when its wait limit passes. n8n resumes
 * such an execution through n8n-core's WorkflowExecute.handleWaitingState, which disables the
 * waiting node (its input items pass on output 0; neither execute() nor webhook() runs). Wrapped
 * once per process, in whichever process runs the time-out (regular main, queue-mode worker): for a
 * waiting node a caller selected, the node is left as it was, so n8n runs its execute() again with
 * the same input; everything else n8n does there is left untouched. n8n's webhook resume sets
 * `waitTill` aside itself before running, so only the time-out reaches the wrap.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { absent, changed, found, isAbsent, loadModule, type Capability } from './load';

export const TIME_OUT_LOOK = "time-out look (n8n-core's WorkflowExecute.handleWaitingState)";

/** The node on top of a waiting execution's stack and its node context as saved with it. */
export interface WaitingNode {
	node: INode;
	context: IDataObject | undefined;
}

export interface TimeOutLook {
	/** From now on in this process, a waiting node `runsAgain` selects runs again at its time-out. */
	select(runsAgain: (waiting: WaitingNode) => boolean): void;
}

interface StackEntry {
	node: INode;
	metadata?: { resumeError?: unknown };
}
interface RunData {
	waitTill?: Date;
	executionData?: {
		nodeExecutionStack: StackEntry[];
		contextData?: Record<string, IDataObject | undefined>;
	};
	resultData: { lastNodeExecuted?: string; runData: Record<string, unknown[]> };
}
type HandleWaitingState = (this: { runExecutionData: RunData }, workflow: unknown) => void;
interface Engine {
	WorkflowExecute?: { prototype?: { handleWaitingState?: HandleWaitingState } };
}

/** Shared by every copy of this package in the process: one wrap, one list of selectors. */
const WRAPPED = Symbol.for('n8n-nodes-payment-gateway.timeOutLook');
type Wrapped = HandleWaitingState & { [WRAPPED]?: Set<(waiting: WaitingNode) => boolean> };

let probed: Promise<Capability<TimeOutLook>> | undefined;

/** Absent outside n8n; an engine that no longer resumes a time-out as known rejects, naming it. */
export async function timeOutLook(): Promise<Capability<TimeOutLook>> {
	probed ??= probe();
	return await probed;
}

async function probe(): Promise<Capability<TimeOutLook>> {
	const core = (await loadModule('n8n-core', async () => await import('n8n-core'))) as unknown;
	if (isAbsent(core)) return absent('no n8n-core here');
	const engine = (core as Engine).WorkflowExecute?.prototype;
	const current = engine?.handleWaitingState as Wrapped | undefined;
	if (typeof current !== 'function')
		return await changed(TIME_OUT_LOOK, 'WorkflowExecute.handleWaitingState missing');
	const selectors = current[WRAPPED] ?? (await wrap(engine!, current));
	return found({ select: (runsAgain) => void selectors.add(runsAgain) });
}

/** What n8n's time-out does to a bare waiting execution: known, or a `changed` rejection. */
async function checkKnown(original: HandleWaitingState): Promise<void> {
	const entry: StackEntry = { node: { name: 'Probe' } as INode };
	const runExecutionData: RunData = {
		waitTill: new Date(),
		executionData: { nodeExecutionStack: [entry], contextData: {} },
		resultData: { lastNodeExecuted: 'Probe', runData: { Probe: [{}] } },
	};
	try {
		original.call({ runExecutionData }, { id: 'probe' });
	} catch (error) {
		await changed(TIME_OUT_LOOK, `handleWaitingState failed: ${(error as Error).message}`);
	}
	const known =
		runExecutionData.waitTill === undefined &&
		entry.node.disabled === true &&
		runExecutionData.resultData.runData.Probe.length === 0;
	if (!known)
		await changed(
			TIME_OUT_LOOK,
			'handleWaitingState no longer disables the waiting node and drops its waiting run',
		);
}

async function wrap(
	engine: { handleWaitingState?: HandleWaitingState },
	original: HandleWaitingState,
): Promise<Set<(waiting: WaitingNode) => boolean>> {
	await checkKnown(original);
	// Two copies probing at once: the first wrap stands.
	const now = engine.handleWaitingState as Wrapped;
	if (now[WRAPPED]) return now[WRAPPED];
	const selectors = new Set<(waiting: WaitingNode) => boolean>();
	const wrapped: Wrapped = function (this: { runExecutionData: RunData }, workflow: unknown) {
		const kept = selectedEntry(this.runExecutionData, selectors);
		original.call(this, workflow);
		if (kept) kept.entry.node.disabled = kept.disabled;
	};
	wrapped[WRAPPED] = selectors;
	engine.handleWaitingState = wrapped;
	return selectors;
}

/** The waiting entry to leave enabled, with its node's `disabled` as it was; never throws. */
function selectedEntry(
	data: RunData | undefined,
	selectors: Set<(waiting: WaitingNode) => boolean>,
): { entry: StackEntry; disabled: boolean | undefined } | undefined {
	const entry = data?.waitTill ? data.executionData?.nodeExecutionStack?.[0] : undefined;
	if (!entry?.node || selectors.size === 0) return undefined;
	// n8n-workflow's NodeHelpers.getContext keys a node's context by `node:<name>`.
	const waiting = {
		node: entry.node,
		context: data!.executionData!.contextData?.[`node:${entry.node.name}`],
	};
	for (const runsAgain of selectors) {
		try {
			if (runsAgain(waiting)) return { entry, disabled: entry.node.disabled };
		} catch {
			// A selector that fails selects nothing: n8n's time-out as it is.
		}
	}
	return undefined;
}
