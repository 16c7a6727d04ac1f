// The demo's editor REST API, read as the demo's owner: executions of a workflow and their run data.
/** The demo owner's session cookie for the editor's REST API. */
export async function ownerCookie(editor: string): Promise<string> {
	const login = await fetch(`${editor}/rest/login`, {
		method: 'POST',
		headers: REST_HEADERS,
		body: JSON.stringify({ emailOrLdapLoginId: 'demo@example.com', password: 'Demo-Passw0rd' }),
	});
	expect(login.status).toBe(200);
	return login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
}
export const REST_HEADERS = {
	'content-type': 'application/json',
	'browser-id': 'start-output-suite',
};

interface Run {
	id: string;
	status: string;
}

/** The demo's executions of one workflow, read as its owner through the editor's REST API. */
export async function executionsOf(editor: string, workflowId: string): Promise<Run[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await fetch(`${editor}/rest/executions?filter=${filter}`, {
		headers: { ...REST_HEADERS, cookie: await ownerCookie(editor) },
	});
	return ((await answer.json()) as { data: { results: Run[] } }).data.results;
}

/** n8n's flatted form (every object and string an entry, referenced by its index as text). */
function unflatten(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	const revived = new Map<number, unknown>();
	const at = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const value = input[index];
		if (typeof value !== 'object' || value === null) return value;
		const out: Record<string, unknown> = Array.isArray(value) ? ([] as never) : {};
		revived.set(index, out);
		for (const [key, item] of Object.entries(value))
			out[key] = typeof item === 'string' ? at(Number(item)) : item;
		return out;
	};
	return at(0);
}

type RunData = Record<
	string,
	Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>
>;

/** One execution's run data (node name → its runs), as n8n saved it. */
export async function runDataOf(editor: string, id: string): Promise<RunData> {
	const answer = await fetch(`${editor}/rest/executions/${id}`, {
		headers: { ...REST_HEADERS, cookie: await ownerCookie(editor) },
	});
	const { data } = (await answer.json()) as { data: { data: string } };
	return (unflatten(data.data) as { resultData: { runData: RunData } }).resultData.runData;
}

/** Polls `read` every half second until `done` holds or `ms` pass; the last value read. */
export async function until<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	ms: number,
): Promise<T> {
	let value = await read();
	for (const deadline = Date.now() + ms; !done(value) && Date.now() < deadline; ) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		value = await read();
	}
	return value;
}
