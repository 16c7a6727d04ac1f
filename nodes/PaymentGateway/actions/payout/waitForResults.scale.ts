/**
 * A test setting of Payout > Wait for Results: PAYMENT_GATEWAY_RESULTS_CHECK_SCALE (a number
 * between 0 and 1, in n8n's environment) multiplies the minutes between checks, so that the
 * real-n8n suites wait seconds instead of minutes. Unset, empty, not a number or not in (0, 1]:
 * the product's schedule (1, 2, 4, 8, then every 15 minutes). Whatever the value, no wait between
 * checks is shorter than MIN_STEP_MS, so a waiting execution cannot read the ledger in a tight loop.
 */
export const CHECK_SCALE_VARIABLE = 'PAYMENT_GATEWAY_RESULTS_CHECK_SCALE';

/** The shortest wait between two checks, whatever the setting. */
export const MIN_STEP_MS = 15_000;

/** The scale the environment sets, 1 when it sets none that shortens the schedule. */
export function checkScale(env: NodeJS.ProcessEnv = process.env): number {
	const raw = String(env[CHECK_SCALE_VARIABLE] ?? '').trim();
	const scale = raw === '' ? NaN : Number(raw);
	return scale > 0 && scale <= 1 ? scale : 1;
}

/** A step of the schedule, scaled, never below the floor (the product's steps are all above it). */
export const scaledStep = (stepMs: number, scale: number): number =>
	Math.max(MIN_STEP_MS, Math.round(stepMs * scale));
