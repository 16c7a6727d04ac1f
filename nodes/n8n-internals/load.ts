/**
 * How the door loads n8n's own modules, and the one error it raises. Each module is taken from the
 * running n8n's own install, resolved as n8n's CLI resolves it: a package folder may have other
 * copies above it (a clone's development dependencies, another project's node_modules with
 * N8N_CUSTOM_EXTENSIONS), and Node.js looks there before n8n's NODE_PATH, which would give a second
 * container n8n never set up.
 */
/** A module of n8n that cannot be resolved here: outside n8n, or an n8n without it. */
const ABSENT = Symbol('absent');

/** The file of n8n's CLI that loads community packages: loaded in every n8n process before them. */
const N8N_LOADER = /[\\/](?:n8n|cli)[\\/]dist[\\/]load-nodes-and-credentials\.js$/;

/** Where this process's n8n is installed, found once: its loader's file, or undefined outside n8n. */
let anchor: string | null | undefined;

function n8nLoaderFile(): string | undefined {
	anchor ??= Object.keys(require.cache).find((file) => N8N_LOADER.test(file)) ?? null;
	return anchor ?? undefined;
}

/** What `import()` gives for a CommonJS module (esModuleInterop), for a module loaded by require. */
function asImported(loaded: unknown): unknown {
	if ((loaded as { __esModule?: boolean } | undefined)?.__esModule) return loaded;
	return Object.assign({}, loaded, { default: loaded });
}

/** `specifier` resolved and loaded as the module `file` would load it. */
function requireFrom(file: string, specifier: string): unknown {
	const folder = file.replace(/[\\/][^\\/]*$/, '');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(require.resolve(specifier, { paths: [folder] }));
}

const isNotFound = (error: unknown, name: string) => {
	const { code, message } = error as { code?: string; message?: string };
	return code === 'MODULE_NOT_FOUND' && String(message).includes(`'${name}`);
};

/**
 * `name` (a module specifier) as the running n8n has it; outside n8n, `load()` (a literal `import()`, so the package
 * scanner sees every module), refused when it finds a copy other than the one this process loaded.
 * ABSENT when neither has it.
 */
export async function loadModule<T>(
	name: string,
	load: () => Promise<T>,
): Promise<T | typeof ABSENT> {
	const loader = n8nLoaderFile();
	try {
		if (loader) return asImported(requireFrom(loader, name)) as T;
		const copy = foreignCopy(name);
		if (copy) return await Promise.reject(copy);
		return await load();
	} catch (error) {
		if (isNotFound(error, name)) return ABSENT;
		return await Promise.reject(error);
	}
}

/** The folder of the package of `specifier` in a module file's path (…/node_modules/@n8n/di/). */
const packageFolder = (file: string, specifier: string) => {
	const parts = specifier.split('/');
	const name = parts.slice(0, specifier.startsWith('@') ? 2 : 1);
	const unix = file.replace(/\\/g, '/');
	const marker = `/node_modules/${name.join('/')}/`;
	const at = unix.lastIndexOf(marker);
	return at < 0 ? undefined : file.slice(0, at + marker.length);
};

/**
 * Where no n8n loader is known: the copy `name` resolves to from here, when this process already
 * loaded another copy of that package (n8n's) and not this one; else undefined.
 */
function foreignCopy(name: string): N8nInternalsError | undefined {
	const cache = require.cache;
	let file: string;
	try {
		file = require.resolve(name);
	} catch {
		return undefined;
	}
	const mine = packageFolder(file, name);
	if (!mine || Object.keys(cache).some((loaded) => loaded.startsWith(mine))) return undefined;
	const loaded = Object.keys(cache).find((other) => packageFolder(other, name) !== undefined);
	if (!loaded) return undefined;
	return new N8nInternalsError(
		`module ${name}`,
		'copy',
		'n8n',
		`found at ${mine}, which is not the copy this n8n loaded (${packageFolder(loaded, name)}): a node_modules folder above the package holds its own. Install the package where n8n's installer puts it (~/.n8n/nodes), or remove that copy`,
	);
}

export const isAbsent = (loaded: unknown): loaded is typeof ABSENT => loaded === ABSENT;

let version: Promise<string> | undefined;

/** "n8n 2.41.1" from n8n's install; n8n-core's version outside n8n (the test harness). */
export async function n8nVersion(): Promise<string> {
	version ??= (async () => {
		// n8n's own package, resolved from n8n's install at run time; not installed for development.
		const fromN8n = async () =>
			// eslint-disable-next-line import-x/no-unresolved
			await import('n8n/package.json');
		const n8n = await loadModule('n8n/package.json', fromN8n).catch(() => undefined);
		if (n8n && !isAbsent(n8n)) return `n8n ${String((n8n as { version?: unknown }).version)}`;
		const core = await loadModule(
			'n8n-core/package.json',
			async () => await import('n8n-core/package.json'),
		);
		return isAbsent(core) ? 'n8n (version unknown)' : `n8n-core ${core.version}`;
	})();
	return await version;
}

/**
 * A capability of n8n that is not what this package was built against (`changed`: a renamed
 * setting, a missing repository, another table), that failed while used (`fault`: the database or
 * Redis did not answer), or a module found that is not the running n8n's (`copy`). The message
 * always names the capability or module.
 */
export class N8nInternalsError extends Error {
	constructor(
		readonly capability: string,
		readonly kind: 'changed' | 'fault' | 'copy',
		readonly n8n: string,
		detail: string,
	) {
		super(
			kind === 'changed'
				? `${n8n} is not what the Payment Gateway package knows for "${capability}": ${detail}. Update the package, or use an n8n release it supports`
				: kind === 'copy'
					? `${capability} is not n8n's own: ${detail}`
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
