/**
 * Seen, not guessed: the first time a node of this package needs n8n's internals, one line in
 * n8n's log names what was found and the trigger's exactly-once mode in effect. The modes are
 * listed in docs/running-at-scale.md.
 */
import type { N8nInternals } from './capabilities';
import type { Capability } from './load';
import { N8nInternalsError } from './load';

export type ExactlyOnceMode =
	| 'Redis claim + execution check'
	| 'Redis claim without execution check: a delivery whose receiver died unanswered can run twice'
	| 'memory + database rows + execution check'
	| 'memory + database rows without execution check: a delivery whose receiver died unanswered can run twice'
	| "memory + n8n's processed-data list"
	| 'memory only: duplicates possible after a restart'
	| 'none: every delivery answered 503 (the unusable capability is named next)';

type Probed = Record<string, Capability<unknown> | Error>;

/** A probe's capability, or the error it rejected with. */
const outcomeOf = async (probe: () => Promise<Capability<unknown>>) =>
	await probe().catch((error: Error) => error);

/** The mode that the trigger's capabilities give, in the order it uses them. */
export function exactlyOnceMode(probed: Probed): ExactlyOnceMode {
	const has = (name: string) => {
		const capability = probed[name];
		return !(capability instanceof Error) && capability?.found === true;
	};
	const check = has('execution check');
	if (probed['queue Redis'] instanceof Error)
		return 'none: every delivery answered 503 (the unusable capability is named next)';
	if (has('queue Redis'))
		return check
			? 'Redis claim + execution check'
			: 'Redis claim without execution check: a delivery whose receiver died unanswered can run twice';
	if (probed['database rows'] instanceof Error)
		return 'none: every delivery answered 503 (the unusable capability is named next)';
	if (has('database rows'))
		return check
			? 'memory + database rows + execution check'
			: 'memory + database rows without execution check: a delivery whose receiver died unanswered can run twice';
	if (has('processed-data list')) return "memory + n8n's processed-data list";
	return 'memory only: duplicates possible after a restart';
}

const describe = (name: string, capability: Capability<unknown> | Error) => {
	if (capability instanceof N8nInternalsError && capability.kind === 'copy')
		return `${name}: WRONG COPY (${capability.message})`;
	if (capability instanceof N8nInternalsError) return `${name}: CHANGED (${capability.message})`;
	if (capability instanceof Error) return `${name}: failed (${capability.message})`;
	if (!capability.found) return `${name}: no (${capability.why})`;
	const enabled = (capability.use as { enabled?: unknown } | undefined)?.enabled;
	return typeof enabled === 'boolean' ? `${name}: yes (${enabled ? 'on' : 'off'})` : `${name}: yes`;
};

/** Every capability that needs no node context, probed (memoised by each capability). */
async function probeAll(door: N8nInternals): Promise<Probed> {
	return {
		'queue Redis': await outcomeOf(door.queueRedis),
		'execution check': await outcomeOf(door.executionCheck),
		'database rows': await outcomeOf(door.processedRows),
		'processed-data list': await outcomeOf(door.processedList),
		'resume engine': await outcomeOf(door.resumeEngine),
		'time-out look': await outcomeOf(door.timeOutLook),
		'execution custom data': await outcomeOf(door.executionCustomData),
		'SSRF setting': await outcomeOf(door.ssrfSetting),
	};
}

/**
 * The data tables (the payout ledger's store) are probed per execution: named as found when the
 * line is written by a payout run, else as asked later.
 */
const TABLES_LATER = 'data tables: asked by each payout run (its output names the ledger store)';

/** Probes every capability that needs no node context, and says what was found in one line. */
export async function reportLine(
	door: N8nInternals,
	credential?: Capability<unknown>,
	tables?: Capability<unknown> | Error,
): Promise<string> {
	const probed = await probeAll(door);
	if (credential) probed['stored credential'] = credential;
	const found = Object.entries(probed).map(([name, capability]) => describe(name, capability));
	found.push(tables ? describe('data tables', tables) : TABLES_LATER);
	return `Payment Gateway nodes on ${await door.version()}: exactly-once mode of the trigger: ${exactlyOnceMode(probed)}. n8n internals: ${found.join('; ')}`;
}

/**
 * Why the trigger cannot keep exactly-once in this n8n (its mode would be none: every delivery
 * answered 503), naming each unusable capability; undefined when it can.
 */
export async function exactlyOnceProblem(door: N8nInternals): Promise<string | undefined> {
	const probed = await probeAll(door);
	if (!exactlyOnceMode(probed).startsWith('none')) return undefined;
	return Object.entries(probed)
		.filter(([, capability]) => capability instanceof Error)
		.map(([name, capability]) => describe(name, capability))
		.join('; ');
}

let reported: Promise<void> | undefined;

/** Logs the line once per process (at info level; at error level when a capability is unusable). */
export async function reportOnce(
	door: N8nInternals,
	logger: { info(message: string): void; error(message: string): void },
	credential?: Capability<unknown>,
	tables?: Capability<unknown> | Error,
): Promise<void> {
	reported ??= reportLine(door, credential, tables).then((line) =>
		/CHANGED|WRONG COPY/.test(line) ? logger.error(line) : logger.info(line),
	);
	await reported;
}
