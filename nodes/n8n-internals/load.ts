/**
 * How the door loads n8n's own modules, and the one error it raises. n8n adds its own module
 * folders to the paths community packages resolve from (LoadNodesAndCredentials.init), so each
 * import below finds the copy the running n8n loaded and set up.
 */

/** A module of n8n that cannot be resolved here: outside n8n, or an n8n without it. */
const ABSENT = Symbol('absent');

/** `load()` (a literal `import()`, so the package scanner sees every module), or ABSENT. */
export async function loadModule<T>(
	name: string,
	load: () => Promise<T>,
): Promise<T | typeof ABSENT> {
	try {
		return await load();
	} catch (error) {
		const { code, message } = error as { code?: string; message?: string };
		if (code === 'MODULE_NOT_FOUND' && String(message).includes(`'${name}`)) return ABSENT;
		return await Promise.reject(error);
	}
}

export const isAbsent = (loaded: unknown): loaded is typeof ABSENT => loaded === ABSENT;

let version: Promise<string> | undefined;

/** "n8n 2.41.1" from n8n's install; n8n-core's version outside n8n (the test harness). */
export async function n8nVersion(): Promise<string> {
	version ??= (async () => {
		// n8n's own package, resolved from n8n's install at run time; not installed for development.
		// eslint-disable-next-line import-x/no-unresolved
		const n8n = await loadModule('n8n', async () => await import('n8n/package.json')).catch(
			() => undefined,
		);
		if (n8n && !isAbsent(n8n)) return `n8n ${String((n8n as { version?: unknown }).version)}`;
		const core = await loadModule('n8n-core', async () => await import('n8n-core/package.json'));
		return isAbsent(core) ? 'n8n (version unknown)' : `n8n-core ${core.version}`;
	})();
	return await version;
}

/**
 * A capability of n8n that is not what this package was built against (`changed`: a renamed
 * setting, a missing repository, another table) or that failed while used (`fault`: the database or
 * Redis did not answer). The message always names the capability and the n8n release.
 */
export class N8nInternalsError extends Error {
	constructor(
		readonly capability: string,
		readonly kind: 'changed' | 'fault',
		readonly n8n: string,
		detail: string,
	) {
		super(
			kind === 'changed'
				? `${n8n} is not what the Payment Gateway package knows for "${capability}": ${detail}. Update the package, or use an n8n release it supports`
				: `${capability} (${n8n}): ${detail}`,
		);
		this.name = 'N8nInternalsError';
	}
}

/**
 * Rejects with the `changed` error for `capability`. (The door's errors are not node errors: each
 * caller turns them into its own, a 503 answer or a NodeOperationError.)
 */
export async function changed(capability: string, detail: string): Promise<never> {
	return await Promise.reject(
		new N8nInternalsError(capability, 'changed', await n8nVersion(), detail),
	);
}

/** Runs `use`, turning any failure into a `fault` of `capability` (a changed shape stays as it is). */
export async function asFault<T>(capability: string, use: () => Promise<T>): Promise<T> {
	try {
		return await use();
	} catch (error) {
		const fault =
			error instanceof N8nInternalsError
				? error
				: new N8nInternalsError(capability, 'fault', await n8nVersion(), (error as Error).message);
		return await Promise.reject(fault);
	}
}

/** One capability as probed: usable, or absent and why (the documented mode without it applies). */
export type Capability<T> = { found: true; use: T } | { found: false; why: string };

export const absent = (why: string): Capability<never> => ({ found: false, why });
export const found = <T>(use: T): Capability<T> => ({ found: true, use });
