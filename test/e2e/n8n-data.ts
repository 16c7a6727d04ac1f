// What the e2e suites hand to a real n8n and read back from it: the package's node types, the
// instance owner, credentials and workflows to import, CLI results, runs and executions.
export const PACKAGE = 'n8n-nodes-payment-gateway';
export const GATEWAY_TYPE = `${PACKAGE}.paymentGateway`;
export const TRIGGER_TYPE = `${PACKAGE}.paymentGatewayTrigger`;

export const OWNER = {
	email: 'owner@e2e.local',
	firstName: 'E2e',
	lastName: 'Owner',
	password: 'E2e-Passw0rd',
};

export interface CredentialEntry {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface CliResult {
	code: number | null;
	/** Set when the process ended by a signal (then code is null). */
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface Item {
	json: Record<string, any>;
	[key: string]: unknown;
}

/** What `n8n execute` printed: the run (IRun) when found, plus the raw output. */
export interface ExecuteResult extends CliResult {
	run?: { status?: string; data: { resultData: { runData: Record<string, any[]>; error?: any } } };
	/** Items of a node's first main output in its first run; [] when it did not run. */
	items(node: string): Item[];
}

export interface Execution {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	data?: { resultData: { runData: Record<string, any[]>; error?: any } };
}

/** Items of a node's first main output in its first run, from resultData.runData. */
export function nodeItems(runData: Record<string, any[]> | undefined, node: string): Item[] {
	return (runData?.[node]?.[0]?.data?.main?.[0] as Item[] | undefined) ?? [];
}
