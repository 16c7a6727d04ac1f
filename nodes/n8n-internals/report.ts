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
	| 'none: every delivery answered 503 (n8n changed, see the error)';

type Probed = Record<string, Capability<unknown> | Error>;

const settled = async (probe: () => Promise<Capability<unknown>>) =>
	await probe().catch((error: Error) => error);

/** The mode that the trigger's capabilities give, in the order it uses them. */
export function exactlyOnceMode(probed: Probed): ExactlyOnceMode {
	const has = (name: string) => {
		const capability = probed[name];
		return !(capability instanceof Error) && capability?.found === true;
	};
	const check = has('execution check');
	if (probed['queue Redis'] instanceof Error)
		return 'none: every delivery answered 503 (n8n changed, see the error)';
	if (has('queue Redis'))
		return check
			? 'Redis claim + execution check'
			: 'Redis claim without execution check: a delivery whose receiver died unanswered can run twice';
	if (probed['database rows'] instanceof Error)
		return 'none: every delivery answered 503 (n8n changed, see the error)';
	if (has('database rows'))
		return check
			? 'memory + database rows + execution check'
			: 'memory + database rows without execution check: a delivery whose receiver died unanswered can run twice';
	if (has('processed-data list')) return "memory + n8n's processed-data list";
	return 'memory only: duplicates possible after a restart';
}

const describe = (name: string, capability: Capability<unknown> | Error) => {
	if (capability instanceof N8nInternalsError) return `${name}: CHANGED (${capability.message})`;
	if (capability instanceof Error) return `${name}: failed (${capability.message})`;
	return capability.found ? `${name}: yes` : `${name}: no (${capability.why})`;
};

/** Probes every capability that needs no node context, and says what was found in one line. */
export async function reportLine(
	door: N8nInternals,
	credential?: Capability<unknown>,
): Promise<string> {
	const probed: Probed = {
		'queue Redis': await settled(door.queueRedis),
		'execution check': await settled(door.executionCheck),
		'database rows': await settled(door.processedRows),
		'processed-data list': await settled(door.processedList),
		'resume engine': await settled(door.resumeEngine),
		'time-out look': await settled(door.timeOutLook),
		'execution custom data': await settled(door.executionCustomData),
	};
	if (credential) probed['stored credential'] = credential;
	const found = Object.entries(probed).map(([name, capability]) => describe(name, capability));
	return `Payment Gateway nodes on ${await door.version()}: exactly-once mode of the trigger: ${exactlyOnceMode(probed)}. n8n internals: ${found.join('; ')}`;
}

let reported: Promise<void> | undefined;

/** Logs the line once per process (at info level; at error level when n8n changed). */
export async function reportOnce(
	door: N8nInternals,
	logger: { info(message: string): void; error(message: string): void },
	credential?: Capability<unknown>,
): Promise<void> {
	reported ??= reportLine(door, credential).then((line) =>
		line.includes('CHANGED') ? logger.error(line) : logger.info(line),
	);
	await reported;
}
