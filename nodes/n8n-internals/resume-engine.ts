/**
 * Capability "resume engine": whether n8n's engine passes on every output of a node its webhook
 * resumes. n8n marks the resumed node disabled and, before it learned to forward every output of
 * such a node (n8n 1.x, 2.0 and 2.20 do not), passes on its first output only. Asked of n8n-core's
 * WorkflowExecute.handleDisabledNode once, on a bare engine object.
 */
import { absent, changed, found, isAbsent, loadModule, type Capability } from './load';

export const RESUME_ENGINE = "resume engine (n8n-core's WorkflowExecute)";

interface Engine {
	WorkflowExecute?: {
		prototype?: {
			handleDisabledNode?: (
				inputData: { main: unknown[][] },
				forwardAllOutputs?: boolean,
			) => { data?: unknown[] };
		};
	};
}

let probed: Promise<Capability<{ everyOutput: boolean }>> | undefined;

/** Absent outside n8n; a changed engine (no such method, or it throws) rejects, naming it. */
export async function resumeEngine(): Promise<Capability<{ everyOutput: boolean }>> {
	probed ??= probe();
	return await probed;
}

async function probe(): Promise<Capability<{ everyOutput: boolean }>> {
	const core = (await loadModule('n8n-core', async () => await import('n8n-core'))) as unknown;
	if (isAbsent(core)) return absent('no n8n-core here');
	const engine = (core as Engine).WorkflowExecute?.prototype;
	const resume = engine?.handleDisabledNode;
	if (typeof resume !== 'function')
		return await changed(RESUME_ENGINE, 'WorkflowExecute.handleDisabledNode missing');
	let outputs: unknown;
	try {
		outputs = resume.call(Object.create(engine!), { main: [[], [{ json: {} }], []] }, true).data;
	} catch (error) {
		return await changed(RESUME_ENGINE, `handleDisabledNode failed: ${(error as Error).message}`);
	}
	return found({ everyOutput: Array.isArray(outputs) && outputs.length === 3 });
}
